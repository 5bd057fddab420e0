// Every asset movement of a tracked address, end to end: the real CLI against the fake Hiro API, asserting
// the exact set of alerts for send-many-memo legs, a marketplace payout, an sBTC mint, token thresholds, a
// treasury's outflows and burns, a failed call, a native transfer, and a reorg that retracts a movement.
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { coinbase, contractCall, fakeAddress, fakeContractId, ftAssetEvent, nftAssetEvent, print, stxTransferEvent, transfer } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';
import { API_PATHS, PrintedLines, useApiPath } from './api-paths';

const exchange = fakeAddress('exchange');
const seller = fakeAddress('seller');
const artist = fakeAddress('artist');
const buyer = fakeAddress('buyer');
const alice = fakeAddress('alice');
const bob = fakeAddress('bob');
const treasury = fakeAddress('treasury');
const custodian = fakeAddress('custodian');
const sendManyMemo = fakeContractId('send-many-memo', 'send-many');
const marketplace = fakeContractId('marketplace');
const sbtc = `${fakeContractId('sbtc-token', 'sbtc')}::sbtc-token`;
const sbtcDeposit = fakeContractId('sbtc-deposit', 'sbtc');
const diko = `${fakeContractId('diko-token', 'dex')}::diko`;
const dex = fakeContractId('dex-router', 'dex');
const punks = `${fakeContractId('punks', 'art')}::punk`;
const others = Array.from({ length: 8 }, (_, i) => fakeAddress(`payee-${i}`));

/** A send-many-memo leg: the transfer, then the contract's print of the (buff 34) memo, as mainnet shows them. */
const leg = (to: string, amount: number, memo: string) => [stxTransferEvent(custodian, to, amount), print(sendManyMemo, Cl.bufferFromUtf8(memo))];
const memoHex = (text: string) => `0x${Buffer.from(text, 'utf8').toString('hex')}`;

const printed = new PrintedLines();

describe.each(API_PATHS)('the CLI alerts every asset movement of the tracked addresses, on $name', (path) => {
  const suite = cliSuite({
    name: 'transfers',
    config: {
      network: 'mainnet',
      addresses: [exchange, seller, artist],
      transfers: [
        { asset: sbtc, to: [alice], decimals: 8, symbol: 'sBTC' },
        { asset: diko, to: [bob], minAmount: '1000' },
        { asset: '*', from: [treasury] },
        { asset: punks, from: [seller], minAmount: 1 },
        { asset: punks, from: [seller], actions: ['transfer'] },
      ],
      startHeight: 1,
    },
    setupTimeoutMs: 20_000,
  });
  const { fake, chain } = suite;
  useApiPath(fake, path);

  it('alerts each movement once, with its memo, direction and tracked address, and nothing else', async () => {
    chain.mine([coinbase()]); // 1
    const b2 = chain.mine([
      // 0: send-many-memo: three legs, two of them to the exchange, each with its own memo
      contractCall({
        contractId: sendManyMemo,
        sender: custodian,
        events: [...leg(exchange, 1_000_000, 'inv-1'), ...leg(bob, 5, 'other'), ...leg(exchange, 2_500_000, 'inv-3')],
      }),
      // 1: a marketplace sale: ten STX payouts (the seller's and the royalty watched) and the NFT leaving the seller
      contractCall({
        contractId: marketplace,
        sender: buyer,
        events: [
          stxTransferEvent(buyer, seller, 90_000_000),
          stxTransferEvent(buyer, artist, 5_000_000),
          ...others.map((payee, i) => stxTransferEvent(buyer, payee, 100 + i)),
          nftAssetEvent(punks, { action: 'transfer', from: seller, to: buyer }, Cl.uint(42)),
        ],
      }),
      // 2: an sBTC deposit: a mint to alice beside the registry's print
      contractCall({
        contractId: sbtcDeposit,
        events: [ftAssetEvent(sbtc, { action: 'mint', to: alice }, 50_000_000), print(sbtcDeposit, 'completed-deposit')],
      }),
      // 3: DIKO to bob below and at the threshold
      contractCall({
        contractId: dex,
        events: [ftAssetEvent(diko, { action: 'transfer', from: buyer, to: bob }, 999), ftAssetEvent(diko, { action: 'transfer', from: buyer, to: bob }, 1000)],
      }),
      // 4: the treasury pays out STX with its own memo (stx-transfer-memo?) and burns DIKO
      contractCall({
        contractId: dex,
        sender: treasury,
        events: [stxTransferEvent(treasury, buyer, 7_000_000, memoHex('payroll')), ftAssetEvent(diko, { action: 'burn', from: treasury }, 300)],
      }),
      // 5: a failed call that would have paid the exchange
      contractCall({ contractId: dex, status: 'abort_by_response', events: [stxTransferEvent(buyer, exchange, 1)] }),
      // 6: a native transfer to the exchange: one alert, not a second for its own stx_asset event
      transfer({ to: exchange, amount: 3_000_000, from: buyer, memo: 'deposit' }),
      // 7: a native transfer out of the treasury
      transfer({ to: buyer, amount: 4_000_000, from: treasury }),
    ]);
    const tx = (i: number) => b2.txs[i]!.txId;

    const run = await suite.run(suite.args());
    expect(run.code, run.stderr).toBe(0);
    const alerts = jsonLines(printed.record(path, run.stdout));
    expect(alerts.map((a) => a.key)).toEqual([
      `stx_transfer:${tx(0)}:0`,
      `stx_transfer:${tx(0)}:4`,
      `stx_transfer:${tx(1)}:0`,
      `stx_transfer:${tx(1)}:1`,
      `nft_transfer:${tx(1)}:10`,
      `ft_transfer:${tx(2)}:0`,
      `ft_transfer:${tx(3)}:1`,
      `stx_transfer:${tx(4)}:0`,
      `ft_transfer:${tx(4)}:1`,
      `token_transfer:${tx(6)}`,
      `token_transfer:${tx(7)}`,
    ]);
    const byKey = new Map(alerts.map((a) => [a.key, a]));
    expect(byKey.get(`stx_transfer:${tx(0)}:0`)).toMatchObject({
      action: 'transfer',
      sender: custodian,
      recipient: exchange,
      address: exchange,
      direction: 'received',
      amount: '1000000',
      memo: memoHex('inv-1'),
      contract_id: sendManyMemo,
      block_height: 2,
      event_index: 0,
    });
    expect(byKey.get(`stx_transfer:${tx(0)}:4`)).toMatchObject({ amount: '2500000', memo: memoHex('inv-3') });
    expect(byKey.get(`stx_transfer:${tx(1)}:0`)).toMatchObject({ recipient: seller, amount: '90000000', memo: null, contract_id: marketplace });
    expect(byKey.get(`stx_transfer:${tx(1)}:1`)).toMatchObject({ recipient: artist, amount: '5000000' });
    expect(byKey.get(`nft_transfer:${tx(1)}:10`)).toMatchObject({
      asset_id: punks,
      action: 'transfer',
      sender: seller,
      recipient: buyer,
      address: seller,
      direction: 'sent',
      value_repr: 'u42',
    });
    expect(byKey.get(`ft_transfer:${tx(2)}:0`)).toMatchObject({
      asset_id: sbtc,
      action: 'mint',
      sender: null,
      recipient: alice,
      address: alice,
      direction: 'minted',
      amount: '50000000',
      decimals: 8,
      symbol: 'sBTC',
    });
    expect(byKey.get(`ft_transfer:${tx(3)}:1`)).toMatchObject({ asset_id: diko, amount: '1000', decimals: null, symbol: null });
    expect(byKey.get(`stx_transfer:${tx(4)}:0`)).toMatchObject({ address: treasury, direction: 'sent', memo: memoHex('payroll') });
    expect(byKey.get(`ft_transfer:${tx(4)}:1`)).toMatchObject({ action: 'burn', recipient: null, address: treasury, direction: 'burned' });
    expect(byKey.get(`token_transfer:${tx(6)}`)).toMatchObject({ recipient: exchange, amount: '3000000' });
    expect(byKey.get(`token_transfer:${tx(6)}`)).not.toHaveProperty('direction');
    expect(byKey.get(`token_transfer:${tx(7)}`)).toMatchObject({ sender: treasury, direction: 'sent' });
  }, 30_000);

  it('shows the direction and tracked address first, STX exact and tokens in their symbol or base units', async () => {
    const block = chain.mine([
      contractCall({ contractId: sbtcDeposit, events: [ftAssetEvent(sbtc, { action: 'mint', to: alice }, 12_345_678)] }),
      contractCall({ contractId: dex, events: [ftAssetEvent(diko, { action: 'transfer', from: buyer, to: bob }, 2_000_000)] }),
      contractCall({ contractId: marketplace, events: [stxTransferEvent(buyer, exchange, 1_250_500_000)] }),
    ]);
    const run = await suite.run(suite.args().filter((a) => a !== '--json'));
    expect(run.code, run.stderr).toBe(0);
    printed.record(path, run.stdout);
    const short = (address: string) => `${address.slice(0, 4)}...${address.slice(-3)}`;
    expect(run.stdout).toContain(`WARNING  ${short(alice)} minted 0.12345678 sBTC (block ${block.height})`);
    expect(run.stdout).toContain(`WARNING  ${short(bob)} received 2000000 diko (base units) (block ${block.height})`);
    expect(run.stdout).toContain(`WARNING  ${short(exchange)} received 1,250.5 STX (block ${block.height})`);
    expect(run.stdout).toContain('  Amount: 1,250.5 STX\n');
  }, 30_000);

  it('retracts an stx_transfer whose block a reorg replaced and that never came back', async () => {
    const lost = chain.mine([contractCall({ contractId: marketplace, events: [stxTransferEvent(buyer, seller, 77)] })]);
    const key = `stx_transfer:${lost.txs[0]!.txId}:0`;
    const run1 = await suite.run(suite.args());
    expect(jsonLines(printed.record(path, run1.stdout)).map((a) => a.key)).toEqual([key]);

    chain.reorg(1, [[coinbase()]]);
    for (let i = 0; i < 11; i += 1) chain.mine([coinbase()]);
    const run2 = await suite.run(suite.args());
    expect(run2.code, run2.stderr).toBe(0);
    expect(jsonLines(printed.record(path, run2.stdout))).toEqual([
      expect.objectContaining({
        type: 'retraction',
        key: `retraction:${key}:${lost.hash}`,
        retracts: key,
        retracted_type: 'stx_transfer',
        address: seller,
        asset_id: 'stx',
      }),
    ]);
  }, 30_000);

  it('rejects bad transfer rules with exit code 2, naming every problem at once', async () => {
    const bad = await suite.write('bad-transfers.json', {
      network: 'mainnet',
      transfers: [
        { asset: 'SP000000000000000000002Q6VF78.bns', to: ['nope'] },
        { asset: 'stx', minAmount: '-5' },
        { asset: 'stx', to: [alice], actions: ['swap'], colour: 'red' },
      ],
    });
    const run = await suite.run(['--once', '--config', bad, '--state', suite.path('never.json')]);
    expect(run.code).toBe(2);
    for (const path of [
      'transfers[0].asset',
      'transfers[0].to[0]',
      'transfers[1].minAmount',
      'transfers[1]',
      'transfers[2].actions[0]',
      'transfers[2].colour',
    ]) {
      expect(run.stderr).toContain(path);
    }
    expect(run.stderr).toContain('watches nobody');
  }, 30_000);
});

printed.samePrintedLines('the CLI alerting asset movements');
