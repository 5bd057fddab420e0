// What a window's entries cost on every run (docs/windows.md): they ride on the cursor item, so that a crash
// counts nothing twice, and DynamoDB bills an UpdateItem for the whole item (the larger of its size before and
// after, per KB), whatever attributes the update touches. Every run takes the lease on that item and writes
// the cursor on it: both pay for the entries. Measured with the real DynamoDB state store on dynalite (which
// counts capacity as DynamoDB does): a cursor holding one sum window of N entries (one per block with matches:
// an hour of a rule matching in every block at 12 blocks a minute is 720; the config check allows 2,000), then
// a lease take and the run's cursor write that gives it back.
import { EventClock } from './event-clock';
import { emptyUsage, meterDynamo, type AwsUsage } from './aws-meters';
import { PRICES, RUNS_PER_MONTH } from './aws-prices';
import { loopMonth } from './loop-month';
import { dollars, fixed, table, thousands } from './markdown';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamoStateStore } from '../lambda/adapters/dynamodb';
import { encodeWindows } from '../lambda/adapters/dynamodb/window-counts';
import { stateKeys } from '../lambda/adapters/dynamodb/keys';
import type { CursorPosition } from '../lambda/core/ports';
import type { WindowEntry } from '../lambda/core/stages/window-state';
import { WINDOW_REORG_MARGIN_BLOCKS } from '../lambda/core/stages/window-state';
import { startDynalite } from '../test/support/dynalite';
import { seededRandom } from './prng';

export interface WindowItemCostRow {
  entries: number;
  /** The cursor item's size as DynamoDB bills it: the write units of a cursor write that changes nothing else. */
  takeUnits: number;
  cursorUnits: number;
  /** A lease take with the same counts stored as JSON text, as before they were compressed. */
  jsonTakeUnits: number;
  /** Compressing the counts for one cursor write: the median of 21, local CPU. */
  encodeMs: number;
  /** The two writes over a month of the 1-minute schedule, and of the loop at a turn every 8 s. */
  scheduleDollars: number;
  loopDollars: number;
}

const TIP = 3_500_000;

interface DynamoState {
  store: ReturnType<typeof createDynamoStateStore>;
  doc: DynamoDBDocumentClient;
  tableName: string;
}
const TX_ID = `0x${'ab'.repeat(32)}`;

/**
 * N entries as a busy sum window holds them: a block every 4 to 6 s, 1 to 3 matches, amounts with no pattern
 * (what compresses least), the newest within the reorg margin still naming their transaction.
 */
function entries(count: number): WindowEntry[] {
  const random = seededRandom(count + 1);
  let t = 1_790_000_000;
  return Array.from({ length: count }, (_, i) => {
    const h = TIP - count + 1 + i;
    t += random.int(4, 6);
    const recent = TIP - h < WINDOW_REORG_MARGIN_BLOCKS;
    return { h, t, n: random.int(1, 3), v: String(random.int(1, 999_999) * 1_000_000 + random.int(0, 999_999)), c: 1, tx: recent ? [TX_ID] : [] };
  });
}

/** The write units of a lease take once the same counts are stored as JSON text (the layout before compression). */
async function takeOverJsonText(state: DynamoState, usage: AwsUsage, clock: EventClock, windows: unknown): Promise<number> {
  await state.doc.send(
    new UpdateCommand({
      TableName: state.tableName,
      Key: stateKeys('mainnet').cursor,
      UpdateExpression: 'SET #w = :w REMOVE #owner, #leaseUntil',
      ExpressionAttributeNames: { '#w': 'windows', '#owner': 'owner', '#leaseUntil': 'leaseUntil' },
      ExpressionAttributeValues: { ':w': JSON.stringify(windows) },
    }),
  );
  const before = usage.writeUnits;
  await state.store.acquireLease('bench-run', clock.now(), 120_000);
  return usage.writeUnits - before;
}

function medianMs(work: () => unknown, runs = 21): number {
  const times = Array.from({ length: runs }, () => {
    const started = performance.now();
    work();
    return performance.now() - started;
  }).sort((x, y) => x - y);
  return times[Math.floor(runs / 2)]!;
}

export async function measureWindowItemCost(counts: readonly number[] = [0, 100, 720, 2_000]): Promise<WindowItemCostRow[]> {
  const dynamo = await startDynalite();
  const loopTurns = loopMonth(8, RUNS_PER_MONTH, 500).turns;
  try {
    const rows: WindowItemCostRow[] = [];
    for (const count of counts) {
      const clock = new EventClock();
      const usage = emptyUsage();
      const client = dynamo.newClient();
      meterDynamo(client, usage, clock);
      const tableName = await dynamo.createTable(`window-item-${count}`);
      const store = createDynamoStateStore({ client, tableName, network: 'mainnet' });
      const state: DynamoState = { store, doc: DynamoDBDocumentClient.from(client), tableName };
      const at = (height: number): CursorPosition => ({
        height,
        hash: `0x${height.toString(16).padStart(64, '0')}`,
        time: 1_790_000_000,
        ...(count > 0 ? { windows: { 'treasury outflow per hour': { of: 'treasury outflows', entries: entries(count) } } } : {}),
      });
      const first = await store.writeCursor(at(TIP), null);
      const before = usage.writeUnits;
      if (!(await store.acquireLease('bench-run', clock.now(), 120_000))) throw new Error('the bench could not take the lease');
      const takeUnits = usage.writeUnits - before;
      await store.writeCursor(at(TIP + 1), first.version, { releaseLeaseOf: 'bench-run' });
      const cursorUnits = usage.writeUnits - before - takeUnits;
      const jsonTakeUnits = count === 0 ? takeUnits : await takeOverJsonText(state, usage, clock, at(TIP + 1).windows);
      const perRun = (takeUnits + cursorUnits) * PRICES.dynamoWriteUnit;
      const encodeMs = medianMs(() => encodeWindows(at(TIP).windows ?? {}));
      rows.push({ entries: count, takeUnits, cursorUnits, jsonTakeUnits, encodeMs, scheduleDollars: perRun * RUNS_PER_MONTH, loopDollars: perRun * loopTurns });
    }
    return rows;
  } finally {
    await dynamo.close();
  }
}

export function windowItemCostSection(rows: readonly WindowItemCostRow[]): string {
  return [
    "### 5d. A window's entries on every run",
    '',
    "A window's entries ride on the cursor item (so that a crash counts nothing twice), and DynamoDB bills an `UpdateItem` for the whole item, " +
      'the larger of its size before and after, per KB. Every run takes the lease on that item and writes the cursor on it, so both writes pay for ' +
      'the entries, changed or not (`bench/window-item-cost.ts`: the real DynamoDB store on dynalite, one sum window of N entries, one per block with ' +
      'matches; an hour of a rule matching every block at 12 blocks a minute is 720, the config check allows 2,000; the newest 16 name their ' +
      'transaction; amounts with no pattern; the attribute is stored brotli-compressed, lambda/adapters/dynamodb/window-counts.ts). A count window keeps only its last `count` matches and 16 blocks more; a sum window keeps every block of its span. ' +
      'Priced at the on-demand write price, 43,200 runs a month on the schedule, 305,000 turns of the loop at 8 s.',
    '',
    table(
      [
        'window entries',
        'lease take (write units)',
        'cursor write (write units)',
        'a month, 1-minute schedule',
        'a month, the loop at 8 s',
        'lease take with the counts as JSON text (before)',
        'compressing them, a write',
      ],
      rows.map((r) => [
        thousands(r.entries),
        fixed(r.takeUnits, 0),
        fixed(r.cursorUnits, 0),
        dollars(r.scheduleDollars),
        dollars(r.loopDollars),
        fixed(r.jsonTakeUnits, 0),
        `${fixed(r.encodeMs, 2)} ms`,
      ]),
    ),
  ].join('\n');
}
