// What the schedule's tick reads to watch the watcher (lambda/core/health/self-watch.ts): the cursor's height and block
// time, the stall flag and the loop's heartbeat, all attributes of the cursor item, in one strongly consistent
// read (the one the loop's watchdog made anyway). The flag is written alone, only when a stall begins or ends.
// In the loop mode the same item carries the ticks' notes for the turns (loop-turns.ts, TickNotes): the watch
// config version the store called current, and whether an ended SMS minute owes its digest. A tick writes them
// only when one changed; a queued turn reads them with its one read (cursor-record.ts).
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LoopState, TickNotes } from '../../core/scan/loop-turns';
import type { SelfWatchStore, StallCause, StallFlag, WatchPoint } from '../../core/health/self-watch';
import type { StateKeys } from './keys';
import { callTable, type TableAccess } from './table-access';

const NAMES = {
  '#height': 'height',
  '#time': 'time',
  '#version': 'version',
  '#stall': 'stallNotice',
  '#turn': 'loopTurn',
  '#beatAt': 'loopBeatAt',
  '#startedAt': 'loopStartedAt',
  '#restarts': 'loopRestarts',
  '#configVersion': 'configVersion',
  '#smsDigestOwed': 'smsDigestOwed',
};
const CAUSES: readonly StallCause[] = ['stuck-block', 'chain-unlinked', 'loop-died', 'chain-quiet', 'behind'];

export interface WatchPointStore extends SelfWatchStore {
  /** The tick's one read: the watch point, the loop's state as `readLoop` gives it, the notes for the turns. */
  readWatchPoint(): Promise<WatchPoint & { loop: LoopState | null; notes: TickNotes }>;
  /** Leaves these notes for the loop's turns (the tick writes only when one changed). */
  writeTickNotes(notes: TickNotes): Promise<void>;
}

/** The ticks' notes on a cursor item as read (none before the first tick). */
export function tickNotesOf(item: Record<string, unknown> | undefined): TickNotes {
  return { configVersion: typeof item?.configVersion === 'string' ? item.configVersion : null, smsDigestOwed: item?.smsDigestOwed === true };
}

const num = (value: unknown) => (typeof value === 'number' ? value : 0);

function stallOf(value: unknown): StallFlag | null {
  const flag = value as Partial<StallFlag> | undefined;
  if (!flag || !CAUSES.includes(flag.cause as StallCause) || typeof flag.since !== 'number') return null;
  return { cause: flag.cause as StallCause, since: flag.since };
}

export function createWatchPointRecord(table: TableAccess, keys: StateKeys): Omit<WatchPointStore, 'readBlockStall'> {
  const TableName = table.tableName;
  return {
    async readWatchPoint() {
      const { Item } = await callTable(table, 'GetItem', () =>
        table.doc.send(
          new GetCommand({
            TableName,
            Key: keys.cursor,
            ConsistentRead: true,
            ProjectionExpression: Object.keys(NAMES).join(', '),
            ExpressionAttributeNames: NAMES,
          }),
        ),
      );
      const cursor = Item && Item.version !== undefined && typeof Item.height === 'number' ? { height: Item.height, time: num(Item.time) } : null;
      const loop =
        Item && typeof Item.loopTurn === 'string'
          ? { turn: Item.loopTurn, beatAt: num(Item.loopBeatAt), startedAt: num(Item.loopStartedAt), restarts: num(Item.loopRestarts) }
          : null;
      return { cursor, stall: stallOf(Item?.stallNotice), loop, notes: tickNotesOf(Item) };
    },

    async writeStallFlag(flag) {
      const update = flag
        ? { UpdateExpression: 'SET #stall = :flag', ExpressionAttributeValues: { ':flag': { cause: flag.cause, since: flag.since } } }
        : { UpdateExpression: 'REMOVE #stall' };
      await callTable(table, 'UpdateItem', () =>
        table.doc.send(new UpdateCommand({ TableName, Key: keys.cursor, ...update, ExpressionAttributeNames: { '#stall': NAMES['#stall'] } })),
      );
    },

    async writeTickNotes(notes) {
      const names: Record<string, string> = { '#sms': NAMES['#smsDigestOwed'] };
      const values: Record<string, unknown> = {};
      const set: string[] = [];
      if (notes.configVersion !== null) {
        set.push('#configVersion = :version');
        names['#configVersion'] = NAMES['#configVersion'];
        values[':version'] = notes.configVersion;
      }
      if (notes.smsDigestOwed) {
        set.push('#sms = :owed');
        values[':owed'] = true;
      }
      const update = [set.length > 0 ? `SET ${set.join(', ')}` : '', notes.smsDigestOwed ? '' : 'REMOVE #sms'].filter(Boolean).join(' ');
      await callTable(table, 'UpdateItem', () =>
        table.doc.send(
          new UpdateCommand({
            TableName,
            Key: keys.cursor,
            UpdateExpression: update,
            ExpressionAttributeNames: names,
            ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
          }),
        ),
      );
    },
  };
}
