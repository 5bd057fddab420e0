// Runs of the real cycle against one shared DynamoDB table (dynalite), each with its own store instance as
// separate Lambda containers would have, and a record of every cursor write that landed, to check that
// the cursor never went back.
import { afterAll, beforeAll } from 'vitest';
import { runCycle } from '../../lambda/core/cycle';
import type { CycleBudget, CycleSummary } from '../../lambda/core/cycle-types';
import type { WatchConfig } from '../../lambda/core/watch-config/watch-config-schema';
import type { ChainApi, Clock, Cursor, OperatorChannel, Publisher, StateStore, Telemetry } from '../../lambda/core/ports';
import { RecordingOperator } from '../core/harness';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import { startDynalite, type LocalDynamo } from '../support/dynalite';

export const TIMEOUT_MS = 120_000;

export interface SharedTable {
  /** A new store on the current table, as another container would open it. */
  store(clock: Clock): StateStore;
  /** Cursors as written, in the order the table took them. */
  cursorWrites: Cursor[];
  /** A new, empty table for the next test. */
  reset(): Promise<void>;
}

/** One dynalite for the file; `reset()` in beforeEach gives each test its own table. */
export function useSharedTable(): SharedTable {
  let dynamo: LocalDynamo | undefined;
  let tableName = '';
  let tables = 0;
  const shared: SharedTable = {
    cursorWrites: [],
    store(clock) {
      const inner = createDynamoStateStore({ client: dynamo!.client, tableName, network: 'mainnet', now: clock.now, sleep: async () => {} });
      return recordingCursorWrites(inner, shared.cursorWrites);
    },
    async reset() {
      tableName = await dynamo!.createTable(`shared-${++tables}`);
      shared.cursorWrites.length = 0;
    },
  };
  beforeAll(async () => {
    dynamo = await startDynalite();
  });
  afterAll(async () => {
    await dynamo?.close();
  });
  return shared;
}

function recordingCursorWrites(inner: StateStore, writes: Cursor[]): StateStore {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop !== 'writeCursor') return Reflect.get(target, prop, receiver);
      return async (...args: Parameters<StateStore['writeCursor']>) => {
        const written = await target.writeCursor(...args);
        writes.push(written);
        return written;
      };
    },
  });
}

/** No lease at all, as if every other run's lease had lapsed (a paused container, a slow API): only the conditional writes keep runs apart. */
export function withoutLease(inner: StateStore): StateStore {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'acquireLease') return async () => true;
      if (prop === 'releaseLease') return async () => {};
      return Reflect.get(target, prop, receiver);
    },
  });
}

export interface RunPorts {
  chain: ChainApi;
  state: StateStore;
  publisher: Publisher;
  clock: Clock;
  telemetry: Telemetry;
}

export function runOnce(
  ports: RunPorts & { operator?: OperatorChannel },
  config: WatchConfig,
  runId: string,
  budget: Partial<CycleBudget> = {},
): Promise<CycleSummary> {
  const now = ports.clock.now();
  return runCycle({ ...ports, operator: ports.operator ?? new RecordingOperator() }, config, {
    runId,
    deadlineMs: now + TIMEOUT_MS - 15_000,
    leaseTtlMs: TIMEOUT_MS,
    alertStaleAfterMs: TIMEOUT_MS,
    ...budget,
  });
}

/** A promise and the function that settles it, to hold a call until the test lets it go. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** Heights in version order (the order writes landed); the cursor went back if they ever decrease. */
export function heightsByVersion(writes: readonly Cursor[]): number[] {
  return [...writes].sort((a, b) => a.version - b.version).map((c) => c.height);
}
