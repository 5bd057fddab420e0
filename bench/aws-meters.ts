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
  /** Write units by the kind of item written (see itemKind), to show where a cycle's writes go. */
  writeUnitsByItem: Record<string, number>;
  snsCalls: number;
  snsMessages: number;
  /** The loop turns' SQS requests: each turn's receive and what the turn sends (bench/loop-turn.ts). */
  sqsRequests: number;
}

export const emptyUsage = (): AwsUsage => ({ dynamoCalls: 0, readUnits: 0, writeUnits: 0, writeUnitsByItem: {}, snsCalls: 0, snsMessages: 0, sqsRequests: 0 });

/** The kind of state item a request writes, from its partition key (layout in lambda/adapters/dynamodb/keys.ts). */
export function itemKind(input: unknown): string {
  // The document client's input (plain strings) or the low-level one ({ S: string }), by where the meter sits.
  type Pk = string | { S?: string } | undefined;
  const { Key, Item } = input as { Key?: { pk?: Pk }; Item?: { pk?: Pk } };
  const raw = Key?.pk ?? Item?.pk;
  const pk = (typeof raw === 'string' ? raw : raw?.S) ?? '';
  if (/^NET#[^#]+$/.test(pk)) return 'cursor and lease';
  if (pk.endsWith('#CHAIN')) return 'block stretches';
  if (pk.endsWith('#BLOCKS')) return 'block key-list parts';
  if (pk.endsWith('#CONTRACTS')) return 'contract statuses';
  if (pk.includes('#ALERT#')) return 'alert records';
  return 'other';
}

function addWrite(usage: AwsUsage, input: unknown, units: number): void {
  usage.writeUnits += units;
  const kind = itemKind(input);
  usage.writeUnitsByItem[kind] = (usage.writeUnitsByItem[kind] ?? 0) + units;
}

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
        if (WRITES.has(context.commandName ?? '')) addWrite(usage, args.input, units);
        else usage.readUnits += units;
        return result;
      } catch (error) {
        if ((error as Error).name === 'ConditionalCheckFailedException') addWrite(usage, args.input, 1);
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
