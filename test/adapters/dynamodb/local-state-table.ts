// Each test gets a fresh state table on one in-process dynalite, so tests cannot see each other's items.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StateStore } from '../../../lambda/core/ports';
import { createDynamoStateStore, type DynamoStateStoreOptions } from '../../../lambda/adapters/dynamodb';
import { startDynalite, type LocalDynamo } from '../../support/dynalite';

export interface LocalStateTable {
  /** A store on this test's table, as a separate run would have one. */
  store(options?: Partial<Omit<DynamoStateStoreOptions, 'tableName'>>): StateStore;
  /** Raw access to the table, to plant or inspect items the way another writer would. */
  doc(): DynamoDBDocumentClient;
  tableName(): string;
  /** A client of its own on the same endpoint, e.g. to hook its requests. */
  newClient(): DynamoDBClient;
}

export function useLocalStateTable(): LocalStateTable {
  let dynamo: LocalDynamo | undefined;
  let doc: DynamoDBDocumentClient | undefined;
  let tableName = '';
  let tables = 0;

  beforeAll(async () => {
    dynamo = await startDynalite();
    doc = DynamoDBDocumentClient.from(dynamo.client);
  });
  afterAll(async () => {
    await dynamo?.close();
  });
  beforeEach(async () => {
    tableName = await dynamo!.createTable(`state-${++tables}`);
  });

  return {
    store: (options = {}) =>
      createDynamoStateStore({
        client: dynamo!.client,
        tableName,
        network: 'mainnet',
        sleep: async () => {},
        ...options,
      }),
    doc: () => doc!,
    tableName: () => tableName,
    newClient: () => dynamo!.newClient(),
  };
}
