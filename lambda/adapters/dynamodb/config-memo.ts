// The live watch config's memo (lambda/config/live-watch-config.ts): one small item, outside every network's
// partitions because it is read before the config names the network. Written only when a version is taken
// into use or refused.
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WatchConfigMemo, WatchConfigMemoStore } from '../../core/watch-config/watch-config-source';
import type { ItemKey } from './keys';

export const CONFIG_MEMO_KEY: ItemKey = { pk: 'WATCH_CONFIG', sk: 'MEMO' };

export function createDynamoConfigMemoStore(doc: DynamoDBDocumentClient, tableName: string): WatchConfigMemoStore {
  return {
    async readConfigMemo() {
      const { Item } = await doc.send(new GetCommand({ TableName: tableName, Key: CONFIG_MEMO_KEY, ConsistentRead: true }));
      if (!Item || typeof Item.good !== 'object') return null;
      return { good: Item.good, ...(Item.rejected ? { rejected: Item.rejected } : {}) } as WatchConfigMemo;
    },
    async writeConfigMemo(memo) {
      await doc.send(new PutCommand({ TableName: tableName, Item: { ...CONFIG_MEMO_KEY, ...memo } }));
    },
  };
}
