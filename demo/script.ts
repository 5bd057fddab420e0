// The demo's chain, step by step: each step mines (or reorgs) the fake chain so that the watcher, pointed at
// it by demo/watch.json, prints one kind of alert. To show a new kind of alert, add a step that mines the
// transaction it matches (and, if it needs a new rule, the rule in demo/watch.json).
import { Cl } from '@stacks/transactions';
import {
  coinbase,
  contractCall,
  deploy,
  fakeAddress,
  fakeContractId,
  ftAssetEvent,
  nftAssetEvent,
  stxTransferEvent,
  transfer,
  type FakeChain,
  type FakeTxSpec,
} from '../test/support/fake-hiro';

/** The principals demo/watch.json names; the fake derives them from these labels, the same every run. */
export const DEMO = {
  alice: fakeAddress('alice'),
  relayer: fakeAddress('relayer'),
  mallory: fakeAddress('mallory'),
  vault: fakeContractId('vault'),
  sbtc: `${fakeContractId('sbtc-token', 'sbtc')}::sbtc-token`,
  badge: `${fakeContractId('badges', 'nft')}::badge`,
} as const;

/** The relayer's STX before the first block: 50.1 STX, just above the 50 STX its balance rule warns below. */
export const DEMO_RELAYER_STX = 50_100_000;
/** The transactions the mempool steps submit, mined or replaced by a later step. */
let pendingCall: FakeTxSpec | undefined;
let pendingTransfer: (FakeTxSpec & { txId: string }) | undefined;

/** The first height the demo's watcher scans (its `startHeight`): the blocks below are history. */
export const DEMO_START_HEIGHT = 4;

export interface DemoStep {
  /** What happens on chain, as the demo narrates it. */
  says: string;
  /** The alert type(s) the step makes the watcher print. */
  shows: string[];
  act(chain: FakeChain): void;
}

/** A call by the relayer that moves nothing: only its fee (micro-STX) touches its balance. */
const relay = (fee: number) => ({ ...contractCall({ contractId: DEMO.vault, functionName: 'relay', sender: DEMO.relayer }), feeRate: String(fee) });

/** History up to the first watched block, so the watcher's first cycle starts right there. */
export function prepareChain(chain: FakeChain): void {
  chain.setGenesisBalance(DEMO.relayer, 'stx', DEMO_RELAYER_STX);
  for (let h = 1; h <= DEMO_START_HEIGHT; h += 1) chain.mine([coinbase()]);
}

export const DEMO_STEPS: readonly DemoStep[] = [
  {
    says: `a block deploys the watched contract ${DEMO.vault}`,
    shows: ['contract_status'],
    act: (chain) => chain.mine([coinbase(), deploy({ contractId: DEMO.vault })]),
  },
  {
    says: 'a block carries 250 STX to the watched address (alice), memo "rent"',
    shows: ['token_transfer'],
    act: (chain) => chain.mine([coinbase(), transfer({ to: DEMO.alice, amount: 250_000_000n, memo: 'rent' })]),
  },
  {
    says: 'a block carries a deposit into the vault, which prints a log, and a withdrawal by alice that fails with (err u102)',
    shows: ['contract_log', 'contract_call'],
    act: (chain) =>
      chain.mine([
        coinbase(),
        contractCall({
          contractId: DEMO.vault,
          functionName: 'deposit',
          logs: [Cl.tuple({ event: Cl.stringAscii('deposit'), amount: Cl.uint(1_000_000), sender: Cl.principal(DEMO.alice) })],
        }),
        contractCall({
          contractId: DEMO.vault,
          functionName: 'withdraw',
          sender: DEMO.alice,
          status: 'abort_by_response',
          args: [Cl.uint(5_000_000)],
          result: Cl.error(Cl.uint(102)),
        }),
      ]),
  },
  {
    says: 'a block carries a second failed withdrawal from the vault, 8 seconds later: 2 in 10 minutes sets off the window "vault failures"',
    shows: ['contract_call', 'window_threshold'],
    act: (chain) =>
      chain.mine([
        coinbase(),
        contractCall({
          contractId: DEMO.vault,
          functionName: 'withdraw',
          sender: DEMO.alice,
          status: 'abort_by_response',
          args: [Cl.uint(7_000_000)],
          result: Cl.error(Cl.uint(102)),
        }),
      ]),
  },
  {
    says: 'a block carries a payout by the vault: 5 STX to alice inside the call, 0.5 sBTC minted to her, and a badge NFT',
    shows: ['stx_transfer', 'ft_transfer', 'nft_transfer'],
    act: (chain) =>
      chain.mine([
        coinbase(),
        contractCall({
          contractId: DEMO.vault,
          functionName: 'payout',
          events: [
            stxTransferEvent(DEMO.vault, DEMO.alice, 5_000_000n),
            ftAssetEvent(DEMO.sbtc, { action: 'mint', to: DEMO.alice }, 50_000_000n),
            nftAssetEvent(DEMO.badge, { action: 'transfer', from: DEMO.vault, to: DEMO.alice }, Cl.uint(42)),
          ],
        }),
      ]),
  },
  {
    says: 'the relayer pays 0.06 STX in fees for each of two relays: its spendable STX falls below 50 STX at the second',
    shows: ['balance_threshold'],
    act: (chain) => chain.mine([coinbase(), relay(60_000), relay(60_000)]),
  },
  {
    says: 'someone sends a call to set-owner on the vault: it waits in the mempool, not yet in any block',
    shows: ['pending_call'],
    act: (chain) => {
      pendingCall = chain.submit(contractCall({ contractId: DEMO.vault, functionName: 'set-owner', sender: DEMO.mallory, args: [Cl.principal(DEMO.mallory)] }));
    },
  },
  {
    says: 'a block mines that call: its usual alert names the pending one (pending_key)',
    shows: ['contract_call'],
    act: (chain) => chain.mine([coinbase(), pendingCall!]),
  },
  {
    says: 'alice sends 2,000 STX: the transfer waits in the mempool',
    shows: ['pending_transfer'],
    act: (chain) => {
      pendingTransfer = chain.submit(transfer({ from: DEMO.alice, to: DEMO.mallory, amount: 2_000_000_000n }));
    },
  },
  {
    says: 'a copy with a higher fee replaces it: the first is dropped (dropped_replace_by_fee), the copy waits in its turn',
    shows: ['pending_dropped', 'pending_transfer'],
    act: (chain) => {
      chain.replaceByFee(pendingTransfer!.txId);
    },
  },
  {
    says: 'a block carries 1.5 STX to alice, memo "tip"',
    shows: ['token_transfer'],
    act: (chain) => chain.mine([coinbase(), transfer({ to: DEMO.alice, amount: 1_500_000n, memo: 'tip' })]),
  },
  {
    says: 'a reorg replaces that block with one that does not carry the 1.5 STX transfer',
    shows: [],
    act: (chain) => chain.reorg(1, [[coinbase()]]),
  },
  {
    says: 'the chain grows 11 blocks, past the old height plus 10: the lost transfer is retracted',
    shows: ['retraction'],
    act: (chain) => chain.mineEmpty(11),
  },
  {
    says:
      `a fork below block ${DEMO_START_HEIGHT}, the first block the demo watched: no block the watcher remembers is left ` +
      '(on mainnet, a fork deeper than its 1,000-block window); the vault deployment is gone with it',
    shows: ['deep_reorg', 'contract_status'],
    act: (chain) =>
      chain.reorg(
        chain.height - (DEMO_START_HEIGHT - 1),
        Array.from({ length: chain.height - DEMO_START_HEIGHT + 2 }, () => [coinbase()]),
      ),
  },
  {
    says:
      'the relayer pays out 1 STX, then 4 more within the minute, then the chain grows past the minute: its rule ' +
      '("cooldownMinutes": 1) alerts once, holds the 4 and sums them up in one alert',
    shows: ['token_transfer', 'cooldown_summary'],
    act: (chain) => {
      const pay = (amount: number) => transfer({ from: DEMO.relayer, to: fakeAddress('bob'), amount: BigInt(amount) * 1_000_000n });
      chain.mine([coinbase(), pay(1)]);
      chain.mine([coinbase(), pay(2), pay(3), pay(4), pay(5)]);
      chain.mineEmpty(8);
    },
  },
];
