// Scanned blocks and contract statuses against a real DynamoDB API (dynalite).
import { describe, expect, it } from 'vitest';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ScannedBlock, StoredContractStatus } from '../../../lambda/core/ports';
import { listBytes } from '../../../lambda/adapters/dynamodb/key-lists';
import { useLocalStateTable } from './local-state-table';

const table = useLocalStateTable();

const scanned = (height: number, alertKeys: string[] = []): ScannedBlock => ({
  height,
  hash: `0x${height.toString(16).padStart(64, '0')}`,
  parentHash: `0x${(height - 1).toString(16).padStart(64, '0')}`,
  alertKeys,
});

describe('scanned blocks', () => {
  it('returns the blocks in the height range, both ends included, in ascending height', async () => {
    const store = table.store();
    // Heights of different digit counts: a string sort without padding would put 100 before 99.
    for (const height of [8, 9, 10, 99, 100, 101, 1000]) await store.putScannedBlocks([scanned(height, [`token_transfer:0x${height}`])]);
    const blocks = await store.getScannedBlocks(9, 100);
    expect(blocks.map((b) => b.height)).toEqual([9, 10, 99, 100]);
    expect(blocks[0]).toEqual(scanned(9, ['token_transfer:0x9']));
  });

  it('reads every page of a range larger than one 1 MB query page', async () => {
    const store = table.store();
    // Five blocks of ~300 KB each: DynamoDB (and dynalite) stop a Query page at 1 MB.
    const manyKeys = (height: number) =>
      Array.from({ length: 2_800 }, (_, i) => `contract_log:0x${String(height).padStart(64, '0')}:${String(i).padStart(20, '0')}`);
    for (let height = 500; height < 505; height++) await store.putScannedBlocks([scanned(height, manyKeys(height))]);
    const blocks = await store.getScannedBlocks(500, 504);
    expect(blocks.map((b) => b.height)).toEqual([500, 501, 502, 503, 504]);
    expect(blocks.every((b) => b.alertKeys.length === 2_800)).toBe(true);
  });

  it('overwrites the block remembered at a height (the chain reorganised)', async () => {
    const store = table.store();
    await store.putScannedBlocks([scanned(50, ['token_transfer:0xold'])]);
    const replacement = { ...scanned(50), hash: '0xnew', alertKeys: [] };
    await store.putScannedBlocks([replacement]);
    expect(await store.getScannedBlocks(50, 50)).toEqual([replacement]);
  });

  it('returns nothing for an empty or inverted range, and reads a range that starts below zero from zero', async () => {
    const store = table.store();
    await store.putScannedBlocks([scanned(0)]);
    await store.putScannedBlocks([scanned(3)]);
    expect(await store.getScannedBlocks(5, 4)).toEqual([]);
    expect((await store.getScannedBlocks(-10, 3)).map((b) => b.height)).toEqual([0, 3]);
  });

  it('keeps the blocks of one write in one item, their 32-byte hashes packed, and reads each back with its parent', async () => {
    const store = table.store();
    const blocks = Array.from({ length: 12 }, (_, i) => scanned(200 + i, i === 4 ? ['token_transfer:0xab'] : []));
    await store.putScannedBlocks(blocks);
    const { Items } = await table
      .doc()
      .send(new QueryCommand({ TableName: table.tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'NET#mainnet#CHAIN' } }));
    expect(Items).toHaveLength(1);
    expect(Items![0]).toMatchObject({ first: 200, parentHash: blocks[0]!.parentHash, alertKeys: { '204': ['token_transfer:0xab'] } });
    expect((Items![0]!.packed as Uint8Array).length).toBe(12 * 32);
    expect(await store.getScannedBlocks(199, 220)).toEqual(blocks);
  });

  it('keeps hashes of another shape as they are', async () => {
    const store = table.store();
    const blocks = [
      { height: 5, hash: '0xAB', parentHash: '0x04', alertKeys: [] },
      { height: 6, hash: 'not-hex', parentHash: '0xAB', alertKeys: [] },
    ];
    await store.putScannedBlocks(blocks);
    expect(await store.getScannedBlocks(5, 6)).toEqual(blocks);
  });

  it('reads a height rescanned after a reorg from the stretch written for the later cursor', async () => {
    const store = table.store();
    const old = Array.from({ length: 11 }, (_, i) => scanned(100 + i, [`token_transfer:0xold${i}`]));
    await store.putScannedBlocks(old.slice(0, 5)); // 100..104
    await store.writeCursor({ height: 104, hash: old[4]!.hash, time: 1 }, null);
    await store.putScannedBlocks(old.slice(5)); // 105..110: a stretch that starts higher
    await store.writeCursor({ height: 110, hash: old[10]!.hash, time: 2 }, 1);
    // A fork at 102: the rescan writes 103..110 again, in a stretch that starts lower but is newer.
    const rescanned = Array.from({ length: 8 }, (_, i) => ({
      height: 103 + i,
      hash: `0x${(0xa00 + i).toString(16).padStart(64, '0')}`,
      parentHash: i === 0 ? old[2]!.hash : `0x${(0xa00 + i - 1).toString(16).padStart(64, '0')}`,
      alertKeys: i === 3 ? ['token_transfer:0xnew'] : [],
    }));
    await store.putScannedBlocks(rescanned);
    const read = await table.store().getScannedBlocks(100, 110);
    expect(read).toEqual([...old.slice(0, 3), ...rescanned]);
  });

  it('reads blocks kept one item per height by earlier versions, below any stretch at that height', async () => {
    const legacy = { pk: 'NET#mainnet#BLOCKS', height: 300, hash: '0xlegacy', parentHash: '0x12b', alertKeys: ['token_transfer:0xl'] };
    await table.doc().send(new PutCommand({ TableName: table.tableName(), Item: { ...legacy, sk: '000000000300' } }));
    await table.doc().send(new PutCommand({ TableName: table.tableName(), Item: { ...legacy, sk: '000000000301', height: 301, hash: '0xlegacy301' } }));
    const store = table.store();
    await store.putScannedBlocks([{ height: 301, hash: '0xstretch', parentHash: '0xlegacy', alertKeys: [] }]);
    expect(await store.getScannedBlocks(300, 301)).toEqual([
      { height: 300, hash: '0xlegacy', parentHash: '0x12b', alertKeys: ['token_transfer:0xl'] },
      { height: 301, hash: '0xstretch', parentHash: '0xlegacy', alertKeys: [] },
    ]);
  });

  it('writes a stretch whose blocks together carry more alert keys than one item holds, and reads every key back', async () => {
    const store = table.store();
    // Three ~185 KB lists: each fits an item alone, all three inline would exceed DynamoDB's 400 KB item limit.
    const keysOf = (height: number) =>
      Array.from({ length: 1_830 }, (_, i) => `contract_log:0x${String(height).padStart(64, '0')}:${String(i).padStart(20, '0')}`);
    const blocks = [700, 701, 702].map((height) => scanned(height, keysOf(height)));
    expect(listBytes(blocks[0]!.alertKeys)).toBe(184_833);
    await store.putScannedBlocks(blocks);
    expect(await table.store().getScannedBlocks(700, 702)).toEqual(blocks);
  });

  it('stores a TTL on each stretch of blocks in epoch seconds', async () => {
    const now = 1_700_000_000_000;
    await table.store({ now: () => now, ttlDays: 2 }).putScannedBlocks([scanned(7)]);
    const { Item } = await table.doc().send(new GetCommand({ TableName: table.tableName(), Key: { pk: 'NET#mainnet#CHAIN', sk: '000000000007' } }));
    expect(Item?.expiresAt).toBe(Math.floor(now / 1000) + 2 * 86_400);
  });
});

describe('contract statuses', () => {
  const deployed: StoredContractStatus = {
    contractId: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token',
    found: true,
    status: 'success',
    txId: '0x4e1b',
    blockHeight: 34_239,
    changes: 1,
  };
  const missing: StoredContractStatus = {
    contractId: 'SP000000000000000000002Q6VF78.not-deployed',
    found: false,
    status: null,
    txId: null,
    blockHeight: null,
    changes: 0,
  };
  const unwatched: StoredContractStatus = { ...deployed, contractId: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.other' };

  it('round-trips the statuses asked for, nulls included, and leaves out the rest', async () => {
    const store = table.store();
    for (const status of [deployed, missing, unwatched]) await store.writeContractStatus(status);
    const read = await store.readContractStatuses([deployed.contractId, missing.contractId, 'SP1.never-written']);
    expect([...read.keys()].sort()).toEqual([deployed.contractId, missing.contractId].sort());
    expect(read.get(deployed.contractId)).toEqual(deployed);
    expect(read.get(missing.contractId)).toEqual(missing);
  });

  it('keeps the latest write of a status', async () => {
    const store = table.store();
    await store.writeContractStatus({ ...deployed, status: 'pending', blockHeight: null, changes: 0 });
    await store.writeContractStatus(deployed);
    expect((await store.readContractStatuses([deployed.contractId])).get(deployed.contractId)).toEqual(deployed);
  });

  it('keeps testnet statuses apart from mainnet ones', async () => {
    await table.store({ network: 'testnet' }).writeContractStatus(deployed);
    expect((await table.store({ network: 'mainnet' }).readContractStatuses([deployed.contractId])).size).toBe(0);
  });
});
