// Every page of a Query, each page retried on its own: the SDK paginator would retry none of them.
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { callTable, type TableAccess } from './table-access';

export type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;

export async function queryAll(table: TableAccess, input: QueryInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await callTable(table, 'Query', () => table.doc.send(new QueryCommand({ ...input, TableName: table.tableName, ExclusiveStartKey: startKey })));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
