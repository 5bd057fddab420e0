// Wiring for core tests: the real cycle over an in-memory chain, an in-memory document store and a
// recording publisher.
import { runCycle } from '../../lambda/core/cycle';
import type { CycleBudget, CycleSummary } from '../../lambda/core/cycle-types';
import type { WatchConfig } from '../../lambda/core/watch-config/watch-config-schema';
import type { OperatorChannel, OperatorNotice, Publisher, Telemetry } from '../../lambda/core/ports';
import { SmsBudget } from '../../lambda/core/deliver/sms-budget';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { MemoryChain } from '../support/memory-chain';
import { RecordingPublisher } from '../support/recording-publisher';
import { emptyWatchConfig } from '../../lambda/config/watch-config';

export const WATCHED = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
export const OTHER = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';
export const TOKEN = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token';
export const ROUTER = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.swap-helper-bridged-v1-1';

export function config(overrides: Partial<WatchConfig> = {}): WatchConfig {
  return {
    ...emptyWatchConfig('mainnet'),
    contracts: [],
    addresses: [WATCHED],
    contractLogs: [{ contractId: TOKEN }],
    transfers: [],
    startHeight: 'latest',
    confirmations: 0,
    maxBlocksPerRun: 500,
    ...overrides,
  } as WatchConfig;
}

export class RecordingTelemetry implements Telemetry {
  logs: { level: string; message: string; attributes?: Record<string, unknown> }[] = [];
  metrics: { name: string; value: number; dimensions?: Record<string, string> }[] = [];
  log(level: string, message: string, attributes?: Record<string, unknown>) {
    this.logs.push({ level, message, ...(attributes ? { attributes } : {}) });
  }
  metric(name: string, value: number, dimensions?: Record<string, string>) {
    this.metrics.push({ name, value, ...(dimensions ? { dimensions } : {}) });
  }
  sum(name: string): number {
    return this.metrics.filter((m) => m.name === name).reduce((a, m) => a + m.value, 0);
  }
}

/** The operator's channel as a list of the notices sent, for tests that assert what reached ops. */
export class RecordingOperator implements OperatorChannel {
  notices: OperatorNotice[] = [];
  async notify(notice: OperatorNotice) {
    this.notices.push(notice);
  }
}

export function harness(chain = new MemoryChain(), cfg = config()) {
  let now = 1_800_000_000_000;
  const state = new DocumentStateStore(emptyDocument('mainnet'));
  const publisher = new RecordingPublisher();
  const telemetry = new RecordingTelemetry();
  const operator = new RecordingOperator();
  const clock = { now: () => now };
  let runs = 0;
  return {
    chain,
    state,
    publisher,
    telemetry,
    operator,
    config: cfg,
    advance(ms: number) {
      now += ms;
    },
    deps: () => ({ chain, state, publisher, clock, telemetry, operator }),
    /**
     * One cycle. With `smsPerRun`, as the Lambda runs an invocation of one cycle: the publisher wrapped in the
     * SMS budget, started before and flushed after (not after a cycle that throws: the tally waits in the state).
     */
    async run(budget: Partial<CycleBudget> & { smsPerRun?: number } = {}, c: WatchConfig = cfg): Promise<CycleSummary> {
      const { smsPerRun, ...rest } = budget;
      if (smsPerRun === undefined) return cycle(publisher, rest, c);
      const invocation = this.smsInvocation(smsPerRun);
      await invocation.start();
      const summary = await cycle(invocation.publisher, rest, c);
      await invocation.flush();
      return summary;
    },
    /**
     * An invocation's SMS budget over the recording publisher, started and flushed by the caller around its
     * cycle, or with `windowMs` as a loop turn's, counted over a window of the harness's clock.
     */
    smsInvocation(perInvocation: number, minuteMs = 0) {
      const sms = new SmsBudget(publisher, { state, clock, telemetry, operator }, { network: cfg.network, perInvocation, staleAfterMs: 120_000, minuteMs });
      return {
        publisher: sms,
        start: () => sms.start(),
        flush: () => sms.flush(),
        run: (budget: Partial<CycleBudget> = {}) => cycle(sms, budget, cfg),
      };
    },
  };

  function cycle(out: Publisher, budget: Partial<CycleBudget>, c: WatchConfig): Promise<CycleSummary> {
    runs += 1;
    return runCycle({ chain, state, publisher: out, clock, telemetry, operator }, c, {
      runId: `run-${runs}`,
      deadlineMs: now + 60_000,
      leaseTtlMs: 120_000,
      alertStaleAfterMs: 120_000,
      ...budget,
    });
  }
}
