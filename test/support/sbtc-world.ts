// A watcher with the sBTC lifecycle on, run through the real cycle against the fake Hiro API and the fake
// Emily over real HTTP: the chain moves a Bitcoin block at a time (a new tenure and its Stacks blocks), the
// deposits' fates are scripted on both sides (Emily's status, the registry's `completed-deposit` print), and
// every run says how many requests it sent to Emily. Shared by the end-to-end tests and the bench.
import { Cl } from '@stacks/transactions';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { runCycle } from '../../lambda/core/cycle';
import type { FetchWay } from '../../lambda/core/follow/fetch-choice';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { SBTC_MAINNET_DEPLOYER } from '../../lambda/core/packs/sbtc-bridge';
import { silentTelemetry, type StateStore } from '../../lambda/core/ports';
import type { WatchConfig } from '../../lambda/core/watch-config/watch-config-schema';
import { createEmilyApi } from '../../lambda/emily';
import { createHiroClient } from '../../lambda/hiro';
import { RecordingOperator } from '../core/harness';
import { createFakeEmily, depositJson, fulfillmentJson, hexId, type DepositJson, type FakeEmily } from './fake-emily';
import { contractCall, createFakeHiro, type FakeHiro, type FakeTxSpec } from './fake-hiro';
import { RecordingPublisher } from './recording-publisher';

export const SBTC_REGISTRY = `${SBTC_MAINNET_DEPLOYER}.sbtc-registry`;

/** The print the registry makes when a deposit is minted, in a call to sbtc-deposit as on chain. */
export function completedDepositTx(deposit: DepositJson, burnHeight: number): FakeTxSpec {
  const value = Cl.tuple({
    topic: Cl.stringAscii('completed-deposit'),
    'bitcoin-txid': Cl.bufferFromHex(deposit.bitcoinTxid),
    'output-index': Cl.uint(deposit.bitcoinTxOutputIndex),
    amount: Cl.uint(deposit.amount),
    'burn-hash': Cl.bufferFromHex(hexId(`burn-${burnHeight}`)),
    'burn-height': Cl.uint(burnHeight),
    'sweep-txid': Cl.bufferFromHex(hexId(`sweep-${deposit.bitcoinTxid}`)),
  });
  return contractCall({
    contractId: `${SBTC_MAINNET_DEPLOYER}.sbtc-deposit`,
    functionName: 'complete-deposit-wrapper',
    logs: [{ printer: SBTC_REGISTRY, value }],
  });
}

/** A `withdrawal-reject` print (of a request nobody follows): the Stacks side's own contract_log alert. */
export function rejectPrintTx(requestId = 9_999): FakeTxSpec {
  const value = Cl.tuple({ topic: Cl.stringAscii('withdrawal-reject'), 'request-id': Cl.uint(requestId), 'signer-bitmap': Cl.uint(0) });
  return contractCall({
    contractId: `${SBTC_MAINNET_DEPLOYER}.sbtc-withdrawal`,
    functionName: 'reject-withdrawal-request',
    logs: [{ printer: SBTC_REGISTRY, value }],
  });
}

export interface SbtcRun {
  summary: CycleSummary;
  /** Requests the run sent to Emily, retries included. */
  emilyRequests: number;
}

export interface SbtcWorld {
  hiro: FakeHiro;
  emily: FakeEmily;
  state: DocumentStateStore;
  publisher: RecordingPublisher;
  operator: RecordingOperator;
  /** The Bitcoin height new Stacks blocks are anchored to. */
  readonly bitcoinHeight: number;
  /** Bitcoin moves on one block and a tenure starts there with a Stacks block holding `txs`. */
  bitcoinBlock(txs?: FakeTxSpec[]): void;
  /** One run of the real cycle (a minute after the last); `wrap` may put a crashing store in front of the state. */
  run(wrap?: (state: StateStore) => StateStore): Promise<SbtcRun>;
  /** A deposit registered with Emily (pending unless said). */
  deposit(seed: string, fields?: Partial<DepositJson>): DepositJson;
  /** Emily's record of a deposit moves on (its fulfillment filled in when confirmed). */
  setStatus(deposit: DepositJson, status: DepositJson['status'], fields?: Partial<DepositJson>): void;
  /** The sBTC alert keys published, in order. */
  sbtcKeys(): string[];
  close(): Promise<void>;
}

/** `fetchWay`: how the runs read the chain (the block scan, as the core keeps it, when absent). */
export async function startSbtcWorld(options: { withdrawalLogs?: boolean; emilyTimeoutMs?: number; fetchWay?: FetchWay } = {}): Promise<SbtcWorld> {
  const hiro = createFakeHiro();
  const emily = createFakeEmily();
  const hiroServer = await hiro.start();
  const emilyServer = await emily.start();
  const state = new DocumentStateStore(emptyDocument('mainnet'));
  const publisher = new RecordingPublisher();
  const operator = new RecordingOperator();
  hiro.chain.mine([]);
  const parsed = parseWatchConfig({
    network: 'mainnet',
    startHeight: hiro.chain.height,
    contractLogs: [{ contractId: SBTC_REGISTRY, where: { topic: options.withdrawalLogs ? 'withdrawal-create' : 'withdrawal-reject' } }],
    sbtcLifecycle: {},
  });
  if (!parsed.ok) throw new Error(`the sBTC world's watch config is refused: ${JSON.stringify(parsed)}`);
  const config: WatchConfig = parsed.config;
  let now = 1_800_000_000_000;
  return {
    hiro,
    emily,
    state,
    publisher,
    operator,
    get bitcoinHeight() {
      return hiro.chain.tip!.burnBlockHeight;
    },
    bitcoinBlock(txs = []) {
      hiro.chain.advanceBitcoin(1);
      hiro.chain.newTenure();
      hiro.chain.mine(txs);
    },
    async run(wrap) {
      now += 60_000;
      const before = emily.requests.length;
      const deps = {
        chain: createHiroClient({ baseUrl: hiroServer.url, requestsPerMinute: 100_000 }),
        state: wrap ? wrap(state) : state,
        publisher,
        clock: { now: () => now },
        telemetry: silentTelemetry,
        operator,
        emily: createEmilyApi({ network: 'mainnet', baseUrl: emilyServer.url, sleep: async () => {}, timeoutMs: options.emilyTimeoutMs ?? 1_000 }),
      };
      const budget = { runId: `run-${now}`, deadlineMs: now + 50_000, leaseTtlMs: 1_000, alertStaleAfterMs: 1_000 };
      const summary = await runCycle(deps, config, { ...budget, ...(options.fetchWay ? { fetchWay: options.fetchWay } : {}) });
      return { summary, emilyRequests: emily.requests.length - before };
    },
    deposit(seed, fields = {}) {
      const deposit = depositJson({ seed, ...fields });
      emily.putDeposit(deposit);
      return deposit;
    },
    setStatus(deposit, status, fields = {}) {
      const fulfillment = status === 'confirmed' ? { fulfillment: fulfillmentJson(deposit.bitcoinTxid, hiro.chain.tip!.burnBlockHeight) } : {};
      Object.assign(deposit, { status, ...fulfillment, ...fields });
      emily.putDeposit(deposit);
    },
    sbtcKeys: () => publisher.sent.map((a) => a.alert.key).filter((key) => key.startsWith('sbtc:')),
    async close() {
      await Promise.all([hiroServer.close(), emilyServer.close()]);
    },
  };
}
