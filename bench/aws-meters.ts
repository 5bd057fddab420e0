// Meters on the AWS clients of the cost benchmark: DynamoDB capacity units as DynamoDB reports them (dynalite
// computes them the same way) and SNS messages published, each with an assumed service round trip added to
// the benchmark's clock (the call itself runs as real I/O, during which the clock does not jump).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PublishBatchCommand, SNSClient, type PublishBatchCommandInput } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import type { EventClock } from './event-clock';

export interface AwsUsage {
  dynamoCalls: number;
  readUnits: number;
  writeUnits: number;
  snsCalls: number;
  snsMessages: number;
}

export const emptyUsage = (): AwsUsage => ({ dynamoCalls: 0, readUnits: 0, writeUnits: 0, snsCalls: 0, snsMessages: 0 });

/** Assumed in-region round trips (a DynamoDB item call, an SNS PublishBatch). */
export const DYNAMO_LATENCY_MS = 5;
export const SNS_LATENCY_MS = 30;

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand']);

/** Counts every call's consumed capacity; a refused conditional write still costs one write unit. */
export function meterDynamo(client: DynamoDBClient, usage: AwsUsage, clock: EventClock): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      usage.dynamoCalls += 1;
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      await clock.sleep(DYNAMO_LATENCY_MS);
      try {
        const result = await clock.track(() => next(args));
        const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity;
        const units = consumed?.CapacityUnits ?? 0;
        if (WRITES.has(context.commandName ?? '')) usage.writeUnits += units;
        else usage.readUnits += units;
        return result;
      } catch (error) {
        if ((error as Error).name === 'ConditionalCheckFailedException') usage.writeUnits += 1;
        throw error;
      }
    },
    { step: 'initialize', name: 'meterCapacity' },
  );
}

/** An SNS client whose PublishBatch accepts every entry without leaving the process. */
export function meteredSns(usage: AwsUsage, clock: EventClock): { client: SNSClient; restore: () => void } {
  const client = new SNSClient({ region: 'us-east-1', credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } });
  const mock = mockClient(client);
  mock.on(PublishBatchCommand).callsFake(async (input: PublishBatchCommandInput) => {
    await clock.sleep(SNS_LATENCY_MS);
    const entries = input.PublishBatchRequestEntries ?? [];
    usage.snsCalls += 1;
    usage.snsMessages += entries.length;
    return { Successful: entries.map((entry, i) => ({ Id: entry.Id, MessageId: `bench-${usage.snsMessages}-${i}` })), Failed: [] };
  });
  return { client, restore: () => mock.restore() };
}
