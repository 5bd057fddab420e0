// Scanned blocks and contract statuses against a real DynamoDB API (dynalite).
import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ScannedBlock, StoredContractStatus } from '../../../lambda/core/ports';
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
    const manyKeys = (height: number) => Array.from({ length: 2_800 }, (_, i) => `contract_log:0x${String(height).padStart(64, '0')}:${String(i).padStart(20, '0')}`);
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

  it('stores a TTL on each stretch of blocks in epoch seconds', async () => {
    const now = 1_700_000_000_000;
    await table.store({ now: () => now, ttlDays: 2 }).putScannedBlocks([scanned(7)]);
    const { Item } = await table
      .doc()
      .send(new GetCommand({ TableName: table.tableName(), Key: { pk: 'NET#mainnet#CHAIN', sk: '000000000007' } }));
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
