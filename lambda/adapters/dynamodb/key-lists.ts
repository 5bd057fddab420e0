// Long lists of alert keys (a block with thousands of matching events, a reorg leaving thousands of alerts to
// recheck) would make an item over DynamoDB's 400 KB limit, a write refused for good that would stop the
// watcher at that block for ever. A list too long for its item is written in parts: items of their own,
// each well under the limit, named by the owner's sort key and read back in order.
import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from '../../zod-mini';
import { parseItem, StateItemError } from './items';
import type { ItemKey } from './keys';
import { callTable, expiresAtFrom, type TableAccess } from './table-access';

/** Bytes of keys an item may carry, leaving room for its other attributes under the 400 KB limit. */
export const MAX_KEY_LIST_BYTES = 300_000;

/** DynamoDB counts a list element as its UTF-8 bytes plus about one byte of overhead. */
export function listBytes(keys: readonly string[]): number {
  return keys.reduce((sum, key) => sum + Buffer.byteLength(key, 'utf8') + 1, 3);
}

/** True when the list fits inline in its owner's item. */
export function fitsInline(keys: readonly string[], maxBytes = MAX_KEY_LIST_BYTES): boolean {
  return listBytes(keys) <= maxBytes;
}

/** The list cut, in order, into parts of at most `maxBytes` each. */
export function splitKeyList(keys: readonly string[], maxBytes = MAX_KEY_LIST_BYTES): string[][] {
  const parts: string[][] = [];
  let current: string[] = [];
  let bytes = 3;
  for (const key of keys) {
    const size = Buffer.byteLength(key, 'utf8') + 1;
    if (current.length > 0 && bytes + size > maxBytes) {
      parts.push(current);
      current = [];
      bytes = 3;
    }
    current.push(key);
    bytes += size;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** A short name for a list's content: parts of one list never mix with another's, and an unchanged list is not rewritten. */
export function keyListDigest(keys: readonly string[]): string {
  return createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 16);
}

/** The sort key of a list's part `index` (1-based) under an owner's sort key; sorts right after the owner. */
export function partSortKey(ownerSortKey: string, index: number): string {
  return `${ownerSortKey}#${String(index).padStart(5, '0')}`;
}

/** Writes a list's parts under `owner` (each an item of its own, tagged with `tag` so a reader can tell whose). */
export async function writeKeyListParts(table: TableAccess, owner: ItemKey, parts: readonly string[][], tag: Record<string, unknown>): Promise<void> {
  const expiresAt = expiresAtFrom(table, table.now());
  for (const [index, alertKeys] of parts.entries()) {
    await callTable(table, 'PutItem', () =>
      table.doc.send(
        new PutCommand({
          TableName: table.tableName,
          Item: { pk: owner.pk, sk: partSortKey(owner.sk, index + 1), part: index + 1, alertKeys, expiresAt, ...tag },
        }),
      ),
    );
  }
}

const partItem = z.object({ part: z.int().check(z.positive()), alertKeys: z.array(z.string()) });

/** The list written under `owner` in `count` parts, in order; throws naming the owner when a part is missing. */
export async function readKeyListParts(table: TableAccess, owner: ItemKey, count: number): Promise<string[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await callTable(table, 'Query', () =>
      table.doc.send(
        new QueryCommand({
          TableName: table.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': owner.pk, ':prefix': `${owner.sk}#` },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      ),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return assembleParts(
    items.map((item) => parseItem(partItem, item, table.tableName)),
    count,
    table.tableName,
    owner,
  );
}

/** Joins parts 1..count in order (parts past `count` are left over from a longer list and ignored). */
export function assembleParts(parts: readonly { part: number; alertKeys: string[] }[], count: number, tableName: string, owner: ItemKey): string[] {
  const byIndex = new Map(parts.map((p) => [p.part, p.alertKeys]));
  const keys: string[] = [];
  for (let index = 1; index <= count; index++) {
    const part = byIndex.get(index);
    if (!part) throw new StateItemError(tableName, owner, `its alert key list has ${count} parts, but part ${index} is missing`);
    keys.push(...part);
  }
  return keys;
}

/** Best effort: parts nobody refers to any more also expire with the table's TTL. */
export async function deleteKeyListParts(table: TableAccess, owner: ItemKey, count: number): Promise<void> {
  for (let index = 1; index <= count; index++) {
    await callTable(table, 'DeleteItem', () =>
      table.doc.send(new DeleteCommand({ TableName: table.tableName, Key: { pk: owner.pk, sk: partSortKey(owner.sk, index) } })),
    );
  }
}
