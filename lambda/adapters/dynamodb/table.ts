// The state table's shape, shared by the CDK stack, the local test table and the store, so that all three
// create and read the same table.
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export const STATE_TABLE = {
  /** String partition key. */
  partitionKey: 'pk',
  /** String sort key. */
  sortKey: 'sk',
  /** Both keys are strings ('S'). */
  keyType: 'S',
  /**
   * Epoch SECONDS after which DynamoDB may delete the item. Deletion lags by up to a few days, so the
   * store also treats an item past this time as absent.
   */
  ttlAttribute: 'expiresAt',
} as const;

/** CreateTable input for the state table (on-demand billing; TTL is enabled separately, by the stack). */
export function stateTableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: STATE_TABLE.partitionKey, AttributeType: STATE_TABLE.keyType },
      { AttributeName: STATE_TABLE.sortKey, AttributeType: STATE_TABLE.keyType },
    ],
    KeySchema: [
      { AttributeName: STATE_TABLE.partitionKey, KeyType: 'HASH' },
      { AttributeName: STATE_TABLE.sortKey, KeyType: 'RANGE' },
    ],
  };
}
