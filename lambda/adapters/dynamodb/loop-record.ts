// The polling loop's token and heartbeat (lambda/core/scan/loop-turns.ts) are attributes of the cursor item, beside
// the lease: the watchdog's restart takes the lease and moves the token in one conditional write; a queued turn
// moves the token with its cursor write (cursor-record.ts), or with a heartbeat of its own when the chain is quiet.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LoopState, LoopStore, LoopTake } from '../../core/scan/loop-turns';
import { LEASE_NAMES } from './items';
import type { StateKeys } from './keys';
import { callTable, isConditionalCheckFailed, type TableAccess } from './table-access';

const LOOP_NAMES = { '#turn': 'loopTurn', '#beatAt': 'loopBeatAt', '#startedAt': 'loopStartedAt', '#restarts': 'loopRestarts' };

function takeUpdate(take: LoopTake) {
  const values: Record<string, unknown> = { ':now': take.nowMs, ':me': take.owner, ':until': take.nowMs + take.ttlMs, ':next': take.next };
  const set = ['#owner = :me', '#leaseUntil = :until', '#acquiredAt = :now', '#turn = :next', '#beatAt = :now'];
  if (take.restart) {
    set.push('#startedAt = :now', '#restarts = :restarts');
    values[':restarts'] = take.restart.restarts;
  }
  let tokenCondition = 'attribute_not_exists(#turn)';
  if (take.expected !== null) {
    tokenCondition = '#turn = :expected';
    values[':expected'] = take.expected;
  }
  return {
    UpdateExpression: `SET ${set.join(', ')}`,
    ConditionExpression: `(attribute_not_exists(#leaseUntil) OR #leaseUntil < :now OR #owner = :me) AND ${tokenCondition}`,
    ExpressionAttributeNames: { ...LEASE_NAMES, '#turn': LOOP_NAMES['#turn'], '#beatAt': LOOP_NAMES['#beatAt'], ...(take.restart ? LOOP_NAMES : {}) },
    ExpressionAttributeValues: values,
  };
}

const num = (value: unknown) => (typeof value === 'number' ? value : 0);

export function createLoopRecord(table: TableAccess, keys: StateKeys): Omit<LoopStore, 'readTurn'> {
  const TableName = table.tableName;
  return {
    async readLoop(): Promise<LoopState | null> {
      const { Item } = await callTable(table, 'GetItem', () =>
        table.doc.send(
          new GetCommand({
            TableName,
            Key: keys.cursor,
            ConsistentRead: true,
            ProjectionExpression: Object.keys(LOOP_NAMES).join(', '),
            ExpressionAttributeNames: LOOP_NAMES,
          }),
        ),
      );
      if (!Item || typeof Item.loopTurn !== 'string') return null;
      return { turn: Item.loopTurn, beatAt: num(Item.loopBeatAt), startedAt: num(Item.loopStartedAt), restarts: num(Item.loopRestarts) };
    },

    async beatLoop(handover) {
      try {
        await callTable(table, 'UpdateItem', () =>
          table.doc.send(
            new UpdateCommand({
              TableName,
              Key: keys.cursor,
              UpdateExpression: 'SET #turn = :next, #beatAt = :now',
              ConditionExpression: '#turn = :expected',
              ExpressionAttributeNames: { '#turn': LOOP_NAMES['#turn'], '#beatAt': LOOP_NAMES['#beatAt'] },
              ExpressionAttributeValues: { ':next': handover.next, ':now': handover.beatAt, ':expected': handover.expected },
            }),
          ),
        );
        return true;
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        table.log('debug', 'loop heartbeat refused: the token is stale', {});
        return false;
      }
    },

    async takeLoopTurn(take) {
      try {
        await callTable(table, 'UpdateItem', () => table.doc.send(new UpdateCommand({ TableName, Key: keys.cursor, ...takeUpdate(take) })));
        return true;
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        table.log('debug', 'loop turn refused: its token is stale or another run holds the lease', { owner: take.owner });
        return false;
      }
    },
  };
}
