// Reading the chain per subject: the feeds of the watched contracts and principals, placed on the header chain
// and assembled into the per-block input the block scan gives the matchers, so both ways alert the same; and
// a feed that breaks its promises stops the read before the block in doubt, with an error naming its route.
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { compileWatchRules, type WatchRules } from '../../lambda/core/rules/rule-lists';
import { blockAlerts, transactionReads } from '../../lambda/core/match/block-alerts';
import { SubjectSource, type Subjects } from '../../lambda/core/follow/subject-source';
import type { HiroClient } from '../../lambda/hiro';
import { contractCall, fakeAddress, fakeContractId, ROUTES, stxTransferEvent, transfer } from '../support/fake-hiro';
import { heldFetch, startHarness, type Harness } from '../hiro/harness';

const alice = fakeAddress('alice');
const bob = fakeAddress('bob');
const vault = fakeContractId('vault');
const other = fakeContractId('other');
const SUBJECTS: Subjects = { contracts: [vault], principals: [alice] };

function rules(): WatchRules {
  const parsed = parseWatchConfig({ network: 'mainnet', contractLogs: [{ contractId: vault }], addresses: [alice] });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return compileWatchRules(parsed.config);
}

/** Blocks 1–6: vault logs in 2 and 4, STX to alice natively in 3 and from a contract in 5, noise everywhere, 6 empty. */
function script(h: Harness): void {
  const noise = (n: number) => transfer({ from: bob, to: fakeAddress(`n${n}`), amount: n });
  h.fake.chain.mine([noise(1)]);
  h.fake.chain.mine([noise(2), contractCall({ contractId: vault, logs: ['deposit', 'more'] }), contractCall({ contractId: other, logs: ['elsewhere'] })]);
  h.fake.chain.mine([transfer({ from: bob, to: alice, amount: 500, memo: 'rent' }), noise(3)]);
  h.fake.chain.mine([contractCall({ contractId: other, logs: [{ printer: vault, value: 'through other' }] }), noise(4)]);
  h.fake.chain.mine([noise(5), contractCall({ contractId: vault, events: [stxTransferEvent(vault, alice, 7)] })]);
  h.fake.chain.mineEmpty(1);
}

function source(client: HiroClient, watch = rules()): SubjectSource {
  return new SubjectSource(client.subjects, client, { rules: watch }, SUBJECTS);
}

async function scanAlerts(client: HiroClient, height: number, watch: WatchRules) {
  const block = (await client.getBlock(height))!;
  const reads = transactionReads(block, watch);
  const events = reads.length > 0 ? await client.getTransactionEvents(reads) : new Map();
  return { header: block.header, alerts: blockAlerts(block, events, watch, 'mainnet') };
}

describe('the per-subject source', () => {
  it('assembles blocks 1–6 in chain order that alert exactly as the block scan does, empty blocks included', async () => {
    const h = await startHarness();
    script(h);
    const client = h.client();
    const watch = rules();

    const read = await source(client, watch).read(1, 6);

    expect(read.error).toBeNull();
    expect(read.blocks.map(({ block }) => [block.header.height, block.header.hash])).toEqual(h.fake.chain.blocks().map((b) => [b.height, b.hash]));
    for (const { block, events } of read.blocks) {
      const scanned = await scanAlerts(client, block.header.height, watch);
      expect({ height: block.header.height, alerts: blockAlerts(block, events, watch, 'mainnet') }).toEqual({
        height: block.header.height,
        alerts: scanned.alerts,
      });
      expect(block.header).toMatchObject({ time: scanned.header.time, txCount: scanned.header.txCount });
    }
    expect(read.blocks.flatMap(({ block }) => blockAlerts(block, read.blocks[0]!.events, watch, 'mainnet'))).toHaveLength(5);
    expect(read.blocks[2]!.block.transactions.map((tx) => tx.txId)).toEqual([h.fake.chain.block(3)!.txs[0]!.txId]);
  });

  it('reads only the feeds, the batch, the header chain, and events only for what a principal’s feed names (a logs feed carries its logs)', async () => {
    const h = await startHarness();
    script(h);
    h.fake.retire(ROUTES.blockTransactions, ROUTES.txMultiple, ROUTES.block, ROUTES.balances);
    const client = h.client();

    await source(client).read(1, 6);

    expect(h.fake.counts()).toEqual({
      [ROUTES.v3Blocks]: 1,
      [ROUTES.contractLogs]: 1,
      [ROUTES.transactionBatch]: 1,
      [ROUTES.principalTransactions]: 1,
      // Only the payout to alice: the logs come with their feed, and the native transfer in block 3 needs no events.
      [ROUTES.v3TransactionEvents]: 1,
      // Answered 410 once: the client reads the v3 events route from then on.
      [ROUTES.txMultiple]: 1,
    });
  });

  it('asks every feed at once, one round trip for all the subjects, only once the header chain has answered', async () => {
    const h = await startHarness();
    script(h);
    const held = heldFetch(2, 300);

    const read = await source(h.client({ fetch: held.fetch })).read(1, 6);

    expect(read.error).toBeNull();
    expect(read.blocks).toHaveLength(6);
    expect(held.most('/logs')).toBe(2);
    expect(held.most('/principals/')).toBe(2);
    // Alone: a feed asked beside it could be as of an older tip than the chain's newest block.
    expect(held.most('/extended/v3/blocks')).toBe(1);
  });

  it('delays the blocks above the tip a logs page reflects (a lagging replica), never skipping them', async () => {
    const h = await startHarness();
    script(h);
    h.fake.faults.once({ headers: { etag: `"${h.fake.chain.block(3)!.indexBlockHash}"` }, transform: (body) => body }, ROUTES.contractLogs);

    const read = await source(h.client()).read(1, 6);

    expect(read.error).toBeNull();
    expect(read.blocks.map(({ block }) => block.header.height)).toEqual([1, 2, 3]);
  });

  it('stops on an ETag that goes back to an older tip than one already seen, naming the route', async () => {
    const h = await startHarness();
    script(h);
    const subjects = source(h.client());
    await subjects.read(1, 6);
    h.fake.faults.once({ headers: { etag: `"${h.fake.chain.block(4)!.indexBlockHash}"` }, transform: (body) => body }, ROUTES.contractLogs);

    const read = await subjects.read(1, 6);

    expect(read.blocks).toEqual([]);
    expect(read.error?.message).toMatch(/^GET \/extended\/v2\/smart-contracts\/\{contract_id\}\/logs: its ETag went back from the tip at block 6 to block 4/);
  });

  it('stops before the block where a feed puts an item the header chain disagrees with, delivering the blocks below', async () => {
    const h = await startHarness();
    script(h);
    const forged = `0x${'ee'.repeat(32)}`;
    h.fake.faults.once(
      {
        transform: (body) => {
          const page = body as { results: { transaction: { block: { height: number; hash: string } } }[] };
          page.results[0]!.transaction.block.hash = forged;
          return page;
        },
      },
      ROUTES.principalTransactions,
    );

    const read = await source(h.client()).read(1, 6);

    expect(read.blocks.map(({ block }) => block.header.height)).toEqual([1, 2, 3, 4]);
    expect(read.error?.message).toBe(
      `GET /extended/v3/principals/{principal}/transactions: puts an item in block 5 ${forged}, but the header chain's block 5 is ${h.fake.chain.block(5)!.hash}`,
    );
  });

  it('stops on a feed that repeats an item, before any block it may have left out', async () => {
    const h = await startHarness();
    script(h);
    h.fake.faults.once(
      {
        transform: (body) => {
          const page = body as { results: unknown[] };
          page.results.splice(1, 0, page.results[0]);
          return page;
        },
      },
      ROUTES.principalTransactions,
    );

    const read = await source(h.client()).read(1, 6);

    expect(read.blocks).toEqual([]);
    expect(read.error?.message).toMatch(/^GET \/extended\/v3\/principals\/\{principal\}\/transactions: repeats transaction 0x/);
  });

  it('stops on a page that does not start where its cursor pointed (items skipped), and on a cursor the API no longer knows', async () => {
    const h = await startHarness();
    h.fake.chain.mine([contractCall({ contractId: vault, logs: Array.from({ length: 80 }, (_, i) => `a${i}`) })]);
    h.fake.chain.mine([contractCall({ contractId: vault, logs: Array.from({ length: 80 }, (_, i) => `b${i}`) })]);
    const onOlderPage = (r: { route: string; query: URLSearchParams }) => r.route === ROUTES.contractLogs && r.query.get('cursor') !== null;
    h.fake.faults.once(
      {
        transform: (body) => {
          const page = body as { cursor: string; results: unknown[] };
          page.cursor = '1:2147483647:0:58';
          page.results.shift();
          return page;
        },
      },
      onOlderPage,
    );

    const skipped = await source(h.client()).read(1, 2);
    h.fake.faults.once({ status: 404, body: { error: 'Not Found', message: 'Cursor not found', statusCode: 404 } }, onOlderPage);
    const unknown = await source(h.client()).read(1, 2);

    expect(skipped.blocks).toEqual([]);
    expect(skipped.error?.message).toMatch(
      /logs: the page at cursor 1:2147483647:0:59 starts at block 1, transaction 0, event 58, not at block 1, transaction 0, event 59: items were skipped$/,
    );
    expect(unknown.blocks).toEqual([]);
    expect(unknown.error?.message).toMatch(/logs: no longer knows the cursor 1:2147483647:0:59 it gave/);
  });

  it('stops on a log whose transaction the batch does not know, while the other feeds are still read below it', async () => {
    const h = await startHarness();
    script(h);
    h.fake.faults.once({ transform: () => ({ results: [] }) }, ROUTES.transactionBatch);

    const read = await source(h.client()).read(1, 6);

    expect(read.blocks).toEqual([]);
    expect(read.error?.message).toMatch(
      /^GET \/extended\/v2\/smart-contracts\/\{contract_id\}\/logs: names transaction 0x[0-9a-f]+, which the transaction batch does not know/,
    );
  });

  it('asks the batch nothing when the newest log of every watched contract is below the first block asked', async () => {
    const h = await startHarness();
    script(h);
    h.fake.chain.mineEmpty(2);

    const read = await source(h.client()).read(7, 8);

    expect(read.error).toBeNull();
    expect(read.blocks.map(({ block }) => block.header.height)).toEqual([7, 8]);
    expect(h.fake.count(ROUTES.transactionBatch)).toBe(0);
  });
});
