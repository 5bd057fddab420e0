// Asset movements inside contract calls once Hiro retires `/extended/v1/tx/multiple` (410 Gone), end to end:
// the real CLI against the fake Hiro API reads them from `/extended/v3/transactions/{tx_id}/events` and prints
// exactly the alerts, keys and JSON, it prints while the v1 route answers.
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import {
  coinbase,
  contractCall,
  fakeAddress,
  fakeContractId,
  ftAssetEvent,
  nftAssetEvent,
  print,
  ROUTES,
  stxTransferEvent,
  transfer,
} from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';

const seller = fakeAddress('seller');
const buyer = fakeAddress('buyer');
const alice = fakeAddress('alice');
const bob = fakeAddress('bob');
const marketplace = fakeContractId('marketplace');
const sbtc = `${fakeContractId('sbtc-token', 'sbtc')}::sbtc-token`;
const sbtcDeposit = fakeContractId('sbtc-deposit', 'sbtc');
const punks = `${fakeContractId('punks', 'art')}::punk`;
const payroll = `0x${Buffer.from('payroll', 'utf8').toString('hex')}`;

describe('the CLI alerts asset movements inside contract calls after /tx/multiple answers 410', () => {
  const suite = cliSuite({
    name: 'transfers-v3',
    config: {
      network: 'mainnet',
      addresses: [seller],
      transfers: [
        { asset: sbtc, to: [alice], decimals: 8, symbol: 'sBTC' },
        { asset: punks, from: [seller] },
      ],
      startHeight: 1,
    },
    setupTimeoutMs: 20_000,
  });
  const { fake } = suite;

  it('prints the same stx_transfer, ft_transfer and nft_transfer alerts from the v3 events route as from v1', async () => {
    fake.chain.mine([coinbase()]);
    const block = fake.chain.mine([
      // 0: a marketplace sale: the STX leg to the seller (with its own memo), one to someone else, the NFT leaving the seller
      contractCall({
        contractId: marketplace,
        sender: buyer,
        events: [
          stxTransferEvent(buyer, seller, 90_000_000, payroll),
          stxTransferEvent(buyer, bob, 5_000_000),
          nftAssetEvent(punks, { action: 'transfer', from: seller, to: buyer }, Cl.uint(42)),
        ],
      }),
      // 1: an sBTC deposit: the mint to alice beside the registry's print
      contractCall({
        contractId: sbtcDeposit,
        events: [print(sbtcDeposit, 'completed-deposit'), ftAssetEvent(sbtc, { action: 'mint', to: alice }, 50_000_000)],
      }),
      // 2: a call that moves nothing watched
      contractCall({ contractId: marketplace, events: [stxTransferEvent(buyer, bob, 1)] }),
      // 3: a native transfer: alerted from the block list, its events never read
      transfer({ to: seller, amount: 3_000_000, from: buyer }),
    ]);
    const tx = (i: number) => block.txs[i]!.txId;

    const onV1 = await suite.run(suite.args('v1-state.json'));
    expect(onV1.code, onV1.stderr).toBe(0);
    expect(fake.count(ROUTES.v3TransactionEvents)).toBe(0);
    fake.retire(ROUTES.txMultiple);
    fake.clearLog();
    const onV3 = await suite.run(suite.args('v3-state.json'));
    expect(onV3.code, onV3.stderr).toBe(0);

    const alerts = jsonLines(onV3.stdout);
    expect(alerts.map((a) => a.key)).toEqual([`stx_transfer:${tx(0)}:0`, `nft_transfer:${tx(0)}:2`, `ft_transfer:${tx(1)}:1`, `token_transfer:${tx(3)}`]);
    expect(alerts).toEqual(jsonLines(onV1.stdout));
    expect(alerts[0]).toMatchObject({ recipient: seller, direction: 'received', amount: '90000000', memo: payroll, contract_id: marketplace });
    expect(alerts[1]).toMatchObject({ asset_id: punks, sender: seller, recipient: buyer, direction: 'sent', value_repr: 'u42' });
    expect(alerts[2]).toMatchObject({ asset_id: sbtc, action: 'mint', sender: null, recipient: alice, direction: 'minted', symbol: 'sBTC' });
    // One 410, then one v3 request for each contract call and none for the native transfer.
    expect(fake.count(ROUTES.txMultiple)).toBe(1);
    expect(
      fake
        .requestsTo(ROUTES.v3TransactionEvents)
        .map((r) => r.path.split('/')[4])
        .sort(),
    ).toEqual([tx(0), tx(1), tx(2)].sort());
  }, 60_000);
});
