// The requests the store sends and how it treats DynamoDB's answers, at the SDK edge (aws-sdk-client-mock):
// the exact conditions, retries of throttling, and failed conditions taken as decisions.
import 'aws-sdk-client-mock-vitest/extend';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { ConditionalCheckFailedException, DynamoDBClient, ProvisionedThroughputExceededException, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamoStateStore } from '../../../lambda/adapters/dynamodb';
import { CursorConflictError, type Telemetry } from '../../../lambda/core/ports';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dynamo = mockClient(doc);

const TableName = 'watch-state';
const now = 1_700_000_000_000;
const nowSec = Math.floor(now / 1000);

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: { httpStatusCode: 400 } });
const throttled = () =>
  new ProvisionedThroughputExceededException({
    message: 'The level of configured provisioned throughput for the table was exceeded',
    $metadata: { httpStatusCode: 400 },
  });
const connectionReset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

let logged: { level: string; message: string }[];
let sleeps: number[];

function store() {
  const log: Telemetry['log'] = (level, message) => logged.push({ level, message });
  return createDynamoStateStore({
    client: doc,
    tableName: TableName,
    network: 'mainnet',
    log,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
}

beforeEach(() => {
  dynamo.reset();
  logged = [];
  sleeps = [];
});

describe('retries', () => {
  it('retries a throttled read and returns its answer', async () => {
    dynamo
      .on(GetCommand)
      .rejectsOnce(throttled())
      .resolves({ Item: { pk: 'NET#mainnet', sk: 'CURSOR', height: 7, hash: '0x07', time: 1, version: 3 } });
    expect(await store().readCursor()).toEqual({ height: 7, hash: '0x07', time: 1, version: 3 });
    expect(dynamo).toHaveReceivedCommandTimes(GetCommand, 2);
    expect(sleeps).toHaveLength(1);
    expect(logged).toContainEqual({ level: 'warn', message: 'DynamoDB GetItem failed, retrying' });
  });

  it('retries a dropped connection', async () => {
    dynamo.on(PutCommand).rejectsOnce(connectionReset()).resolves({});
    await store().putScannedBlocks([{ height: 1, hash: '0x01', parentHash: '0x00', alertKeys: [] }]);
    expect(dynamo).toHaveReceivedCommandTimes(PutCommand, 2);
  });

  it('backs off with capped, growing delays and gives up with the table and operation named', async () => {
    dynamo.on(GetCommand).rejects(throttled());
    await expect(store().readCursor()).rejects.toThrow(
      /DynamoDB GetItem on table "watch-state" failed \(ProvisionedThroughputExceededException: .*\): still failing after 4 attempts/,
    );
    expect(dynamo).toHaveReceivedCommandTimes(GetCommand, 4);
    expect(sleeps).toHaveLength(3);
    sleeps.forEach((ms, i) => expect(ms).toBeLessThanOrEqual(Math.min(1_000, 50 * 2 ** i)));
  });

  it('does not retry an error that a retry cannot fix, and says what to check', async () => {
    dynamo.on(GetCommand).rejects(new ResourceNotFoundException({ message: 'Requested resource not found', $metadata: {} }));
    await expect(store().readCursor()).rejects.toThrow(/table "watch-state".*does not exist.*check the table name and AWS region/);
    expect(dynamo).toHaveReceivedCommandTimes(GetCommand, 1);
  });
});

describe('failed conditions are decisions', () => {
  it('turns a refused cursor write into CursorConflictError without a retry or an error log', async () => {
    dynamo.on(UpdateCommand).rejects(conditionFailed());
    await expect(store().writeCursor({ height: 9, hash: '0x09', time: 1 }, 4)).rejects.toBeInstanceOf(CursorConflictError);
    expect(dynamo).toHaveReceivedCommandTimes(UpdateCommand, 1);
    expect(sleeps).toEqual([]);
    expect(logged.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
  });

  it('answers false for a lease held by another run, without a retry', async () => {
    dynamo.on(UpdateCommand).rejects(conditionFailed());
    expect(await store().acquireLease('run-b', now, 60_000)).toBe(false);
    expect(dynamo).toHaveReceivedCommandTimes(UpdateCommand, 1);
  });

  it('takes a retried cursor write refused by its own first attempt as written', async () => {
    const written = { height: 9, hash: '0x09', time: 1 };
    dynamo.on(UpdateCommand).rejectsOnce(connectionReset()).rejects(conditionFailed());
    dynamo.on(GetCommand).resolves({ Item: { pk: 'NET#mainnet', sk: 'CURSOR', ...written, version: 5 } });
    expect(await store().writeCursor(written, 4)).toEqual({ ...written, version: 5 });
  });

  it('still reports a conflict when a retried cursor write lost to another run', async () => {
    dynamo.on(UpdateCommand).rejectsOnce(connectionReset()).rejects(conditionFailed());
    dynamo.on(GetCommand).resolves({ Item: { pk: 'NET#mainnet', sk: 'CURSOR', height: 10, hash: '0x10', time: 2, version: 5 } });
    await expect(store().writeCursor({ height: 9, hash: '0x09', time: 1 }, 4)).rejects.toBeInstanceOf(CursorConflictError);
  });

  it('takes a retried claim refused by its own first attempt as claimed', async () => {
    let claimId: unknown;
    dynamo
      .on(PutCommand)
      .callsFakeOnce((input: { Item: { claimId: unknown } }) => {
        claimId = input.Item.claimId;
        throw connectionReset();
      })
      .rejects(conditionFailed());
    dynamo.on(GetCommand).callsFake(() => ({
      Item: { state: 'pending', claimedAt: now, claimId, expiresAt: nowSec + 1_000 },
    }));
    expect(await store().claimAlert('token_transfer:0xab', now, 60_000)).toBe('claimed');
  });
});

describe('conditions sent', () => {
  it('creates the cursor only where none exists (a lease may already be on its item)', async () => {
    dynamo.on(UpdateCommand).resolves({});
    await store().writeCursor({ height: 1, hash: '0x01', time: 5 }, null);
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      TableName,
      Key: { pk: 'NET#mainnet', sk: 'CURSOR' },
      UpdateExpression: 'SET #height = :height, #hash = :hash, #time = :time, #version = :version, #updatedAt = :updatedAt REMOVE #pending, #windows, #quiet',
      ConditionExpression: 'attribute_not_exists(#version)',
      ExpressionAttributeValues: { ':height': 1, ':hash': '0x01', ':time': 5, ':version': 1, ':updatedAt': new Date(now).toISOString() },
    });
  });

  it('moves the cursor only from the version it read, leaving the lease on its item alone', async () => {
    dynamo.on(UpdateCommand).resolves({});
    await store().writeCursor({ height: 2, hash: '0x02', time: 6 }, 7);
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      ConditionExpression: '#version = :expected',
      ExpressionAttributeValues: expect.objectContaining({ ':expected': 7 }),
    });
    expect(dynamo.commandCalls(UpdateCommand)[0]?.args[0].input.UpdateExpression).not.toMatch(/owner|leaseUntil/);
  });

  it('gives the lease back in the cursor write when asked, only if it still holds it', async () => {
    dynamo.on(UpdateCommand).resolves({});
    await store().writeCursor({ height: 2, hash: '0x02', time: 6 }, 7, { releaseLeaseOf: 'run-a' });
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      UpdateExpression: expect.stringMatching(/ REMOVE #pending, #windows, #quiet, #owner, #leaseUntil, #acquiredAt$/),
      ConditionExpression: '#version = :expected AND (attribute_not_exists(#owner) OR #owner = :me)',
      ExpressionAttributeValues: expect.objectContaining({ ':expected': 7, ':me': 'run-a' }),
    });
  });

  it('moves the cursor all the same when only the lease was taken by another run meanwhile', async () => {
    dynamo.on(UpdateCommand).rejectsOnce(conditionFailed()).resolves({});
    dynamo.on(GetCommand).resolves({ Item: { pk: 'NET#mainnet', sk: 'CURSOR', height: 1, hash: '0x01', time: 5, version: 7, owner: 'run-b' } });
    const written = await store().writeCursor({ height: 2, hash: '0x02', time: 6 }, 7, { releaseLeaseOf: 'run-a' });
    expect(written).toEqual({ height: 2, hash: '0x02', time: 6, version: 8 });
    expect(dynamo).toHaveReceivedCommandTimes(UpdateCommand, 2);
    expect(dynamo.commandCalls(UpdateCommand)[1]?.args[0].input.UpdateExpression).not.toMatch(/owner/);
  });

  it('takes the lease on the cursor item only if free, expired, or already its own', async () => {
    dynamo.on(UpdateCommand).resolves({});
    await store().acquireLease('run-a', now, 60_000);
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      Key: { pk: 'NET#mainnet', sk: 'CURSOR' },
      UpdateExpression: 'SET #owner = :me, #leaseUntil = :until, #acquiredAt = :now',
      ConditionExpression: 'attribute_not_exists(#leaseUntil) OR #leaseUntil < :now OR #owner = :me',
      ExpressionAttributeNames: { '#leaseUntil': 'leaseUntil', '#owner': 'owner', '#acquiredAt': 'acquiredAt' },
      ExpressionAttributeValues: { ':now': now, ':me': 'run-a', ':until': now + 60_000 },
    });
  });

  it('releases the lease only if it still holds it', async () => {
    dynamo.on(UpdateCommand).rejects(conditionFailed());
    await store().releaseLease('run-a');
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      Key: { pk: 'NET#mainnet', sk: 'CURSOR' },
      UpdateExpression: 'REMOVE #owner, #leaseUntil, #acquiredAt',
      ConditionExpression: '#owner = :me',
      ExpressionAttributeValues: { ':me': 'run-a' },
    });
  });

  it('claims an alert only if absent, retracted, held, muted or expired, reading strongly before deciding', async () => {
    dynamo.on(PutCommand).rejects(conditionFailed());
    dynamo.on(GetCommand).resolves({ Item: { state: 'sent', expiresAt: nowSec + 1_000 } });
    expect(await store().claimAlert('contract_log:0xcd:2', now, 60_000)).toBe('sent');
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, {
      Item: expect.objectContaining({ pk: 'NET#mainnet#ALERT#contract_log:0xcd:2', sk: 'ALERT', state: 'pending', claimedAt: now }),
      ConditionExpression: 'attribute_not_exists(pk) OR #state = :retracted OR #state = :held OR #state = :muted OR #expiresAt < :nowSec',
      ExpressionAttributeValues: { ':retracted': 'retracted', ':held': 'held', ':muted': 'muted', ':nowSec': nowSec },
    });
    expect(dynamo).toHaveReceivedCommandWith(GetCommand, { ConsistentRead: true });
  });

  it('decides a lost claim race from the item the refused write returned (ALL_OLD), without a second read', async () => {
    const refusedBy = (Item: Record<string, unknown>) => Object.assign(conditionFailed(), { Item });
    dynamo
      .on(PutCommand)
      .rejects(
        refusedBy({ state: { S: 'pending' }, claimedAt: { N: String(now - 1_000) }, claimId: { S: 'theirs' }, expiresAt: { N: String(nowSec + 1_000) } }),
      );
    expect(await store().claimAlert('contract_log:0xcd:3', now, 60_000)).toBe('in-flight');
    expect(dynamo).toHaveReceivedCommandWith(PutCommand, { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' });
    expect(dynamo).not.toHaveReceivedCommand(GetCommand);

    dynamo.reset();
    dynamo.on(PutCommand).rejects(refusedBy({ state: { S: 'parked' }, reason: { S: 'InvalidParameter' }, expiresAt: { N: String(nowSec + 1_000) } }));
    expect(await store().claimAlert('contract_log:0xcd:4', now, 60_000)).toBe('parked');
    expect(dynamo).not.toHaveReceivedCommand(GetCommand);
  });

  it('takes over a stale claim only if it is still the claim it read', async () => {
    dynamo.on(PutCommand).rejects(conditionFailed());
    dynamo.on(GetCommand).resolves({
      Item: { state: 'pending', claimedAt: now - 120_000, claimId: 'their-claim', expiresAt: nowSec + 1_000 },
    });
    dynamo.on(UpdateCommand).resolves({});
    expect(await store().claimAlert('contract_log:0xcd:2', now, 60_000)).toBe('stale');
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      ConditionExpression: '#state = :pending AND #claimedAt = :seenAt AND #claimId = :seenId',
      ExpressionAttributeValues: expect.objectContaining({ ':pending': 'pending', ':seenAt': now - 120_000, ':seenId': 'their-claim' }),
    });
  });

  it('releases only its own pending claim', async () => {
    dynamo.on(PutCommand).resolves({});
    dynamo.on(DeleteCommand).resolves({});
    const run = store();
    await run.claimAlert('token_transfer:0xef', now, 60_000);
    const claimId = dynamo.commandCalls(PutCommand)[0]?.args[0].input.Item?.claimId;
    expect(claimId).toEqual(expect.any(String));
    await run.releaseAlertClaim('token_transfer:0xef');
    expect(dynamo).toHaveReceivedCommandWith(DeleteCommand, {
      ConditionExpression: '#state = :pending AND #claimId = :mine',
      ExpressionAttributeValues: { ':pending': 'pending', ':mine': claimId },
    });
  });

  it('keeps the published alert as JSON text when marking it sent', async () => {
    dynamo.on(UpdateCommand).resolves({});
    const alert = { type: 'deep_reorg', key: 'deep_reorg:0x05:0x99', network: 'mainnet', cursor_height: 5, cursor_hash: '0x05', window: 64 };
    await store().markAlertSent(alert.key, now, alert);
    expect(dynamo).toHaveReceivedCommandWith(UpdateCommand, {
      Key: { pk: 'NET#mainnet#ALERT#deep_reorg:0x05:0x99', sk: 'ALERT' },
      ExpressionAttributeValues: { ':state': 'sent', ':sentAt': now, ':expiresAt': nowSec + 30 * 86_400, ':alert': JSON.stringify(alert) },
    });
  });

  it('asks the contract statuses in one strongly consistent query of their partition', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });
    await store().readContractStatuses(['SP1.a', 'SP1.b', 'SP1.c']);
    expect(dynamo.calls()).toHaveLength(1);
    expect(dynamo).toHaveReceivedCommandWith(QueryCommand, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'NET#mainnet#CONTRACTS' },
      ConsistentRead: true,
    });
  });
});
