// Hostile answers from the API through whole cycles (the real client against the fake server): each run
// either completes or stops at a block boundary with the state intact (the cursor on a block it finished,
// every alert up to it delivered, none past it), and once the API behaves, a rerun alerts everything
// exactly once. Retry waits run on a virtual clock; only the timeout case takes real time (a few 100 ms), and only
// it has a short request timeout.
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import type { FakeHiro, FaultOverride, RunningFakeHiro, SeenRequest } from '../support/fake-hiro';
import { coinbase, contractCall, createFakeHiro, fakeAddress, ROUTES, transfer, VirtualClock } from '../support/fake-hiro';
import { alice, canonicalAlertKeys, publishCounts, vault, watcher, type Watcher } from './watched-chain';

let server: RunningFakeHiro | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Blocks 1..6; block 3 holds 60 transactions (two pages), alerts in 2, 3, 4 and 6. */
function chainWithAlerts(fake: FakeHiro): void {
  const bob = fakeAddress('bob');
  fake.chain.mine([coinbase()]);
  fake.chain.mine([transfer({ to: alice, amount: 1 }), contractCall({ contractId: vault, logs: ['opened'] })]);
  const filler = Array.from({ length: 59 }, (_, i) => transfer({ to: bob, amount: i + 1 }));
  fake.chain.mine([...filler.slice(0, 55), transfer({ to: alice, amount: 2 }), ...filler.slice(55)]);
  fake.chain.mine([contractCall({ contractId: vault, logs: ['x', 'y'] }), transfer({ to: alice, amount: 3 })]);
  fake.chain.mine([coinbase()]);
  fake.chain.mine([transfer({ to: alice, amount: 4 })]);
}

type Matcher = (request: SeenRequest) => boolean;
const blockPage =
  (height: number, offset = 0): Matcher =>
  (r) =>
    r.route === ROUTES.blockTransactions && r.path === `/extended/v2/blocks/${height}/transactions` && r.query.get('offset') === String(offset);
const eventsOfBlock = (fake: FakeHiro, height: number): Matcher => {
  const ids = new Set(fake.chain.block(height)!.txs.map((tx) => tx.txId));
  return (r) => r.route === ROUTES.txMultiple && r.query.getAll('tx_id').some((id) => ids.has(id));
};

interface Case {
  name: string;
  /** Scripts the misbehaviour on the fake server. */
  fault: (fake: FakeHiro) => void;
  /** null: the run completes; otherwise what the run's error must say, and the last block it finished. */
  fails: { message: RegExp; name: string; cursorHeight: number } | null;
  /** The client's timeout a request (real ms): short only where the case is a timeout, so that a loaded machine does not turn another case into one. */
  timeoutMs?: number;
}

const drift = (edit: (tx: Record<string, unknown>) => void): FaultOverride => ({
  transform: (body) => {
    edit((body as { results: Record<string, unknown>[] }).results[0]!);
    return body;
  },
});

const CASES: Case[] = [
  {
    name: 'a 503 storm longer than the retries',
    fault: (fake) => void fake.faults.use((r) => (blockPage(4)(r) ? { status: 503 } : undefined)),
    fails: { name: 'HiroServerError', message: /503.*after 3 attempt\(s\).*next run retries/, cursorHeight: 3 },
  },
  { name: 'a 503 storm the retries outlast', fault: (fake) => void fake.faults.times(2, { status: 503 }, blockPage(4)), fails: null },
  {
    name: 'an HTML error page with status 200',
    fault: (fake) => void fake.faults.times(10, { body: '<html><head><title>Attention Required!</title></head></html>' }, eventsOfBlock(fake, 4)),
    fails: { name: 'HiroResponseError', message: /tx\/multiple.*HTML page/, cursorHeight: 3 },
  },
  {
    name: 'an HTML 502 page from a gateway',
    fault: (fake) => void fake.faults.times(10, { status: 502, body: '<html><title>502 Bad Gateway</title></html>' }, blockPage(2)),
    fails: { name: 'HiroServerError', message: /502: HTML page "502 Bad Gateway"/, cursorHeight: 1 },
  },
  {
    name: 'truncated JSON',
    fault: (fake) => void fake.faults.times(10, { body: '{"limit":50,"offset":0,"total":2,"results":[{"tx_id":"0x' }, blockPage(4)),
    fails: { name: 'HiroResponseError', message: /blocks\/4\/transactions.*invalid JSON/, cursorHeight: 3 },
  },
  {
    name: 'schema drift: a missing field',
    fault: (fake) =>
      void fake.faults.times(
        10,
        drift((tx) => delete tx.tx_id),
        blockPage(4),
      ),
    fails: { name: 'HiroResponseError', message: /results\[0\]\.tx_id: missing/, cursorHeight: 3 },
  },
  {
    name: 'schema drift: a null field',
    fault: (fake) =>
      void fake.faults.times(
        10,
        drift((tx) => (tx.block_height = null)),
        blockPage(4),
      ),
    fails: { name: 'HiroResponseError', message: /results\[0\]\.block_height: expected number, got null/, cursorHeight: 3 },
  },
  {
    name: 'schema drift: a wrong type',
    fault: (fake) =>
      void fake.faults.times(
        10,
        drift((tx) => (tx.tx_index = '0')),
        blockPage(4),
      ),
    fails: { name: 'HiroResponseError', message: /results\[0\]\.tx_index: expected number, got string/, cursorHeight: 3 },
  },
  {
    name: 'schema drift: extra fields',
    fault: (fake) =>
      void fake.faults.use((r) => ({
        // The keys of /tx/multiple and the status route are ids: only the objects inside them can grow.
        transform: (b) => withExtraFields(b, r.route !== ROUTES.txMultiple && r.route !== ROUTES.contractStatus),
      })),
    fails: null,
  },
  {
    name: 'a total that changes between pages',
    fault: (fake) => void fake.faults.times(10, { transform: (b) => ({ ...(b as object), total: 61 }) }, blockPage(3, 50)),
    fails: { name: 'HiroInconsistentDataError', message: /total changed from 60 to 61 between pages of block 3/, cursorHeight: 2 },
  },
  {
    name: 'a 410 Gone from a retired route that has no replacement',
    fault: (fake) => void fake.faults.use((r) => (r.route === ROUTES.tip ? { status: 410 } : undefined)),
    fails: { name: 'HiroGoneError', message: /retired the route GET \/extended .*needs an update/, cursorHeight: 0 },
  },
  {
    name: 'answers slower than the timeout',
    fault: (fake) => void fake.faults.times(10, { delayMs: 2_000 }, blockPage(4)),
    fails: { name: 'HiroTimeoutError', message: /timed out after 100 ms.*after 3 attempt/, cursorHeight: 3 },
    timeoutMs: 100,
  },
  {
    name: 'connections dropped without an answer',
    fault: (fake) => void fake.faults.times(10, { hangUp: true }, blockPage(6)),
    fails: { name: 'HiroNetworkError', message: /no answer from the API.*after 3 attempt/, cursorHeight: 5 },
  },
  {
    name: 'a 429 storm with retry-after that the retries outlast',
    fault: (fake) => void fake.faults.times(2, { status: 429, headers: { 'retry-after': '7' } }, blockPage(4)),
    fails: null,
  },
  {
    name: 'a 429 storm with retry-after longer than the retries',
    fault: (fake) => void fake.faults.use((r) => (r.route === ROUTES.txMultiple ? { status: 429, headers: { 'retry-after': '7' } } : undefined)),
    fails: { name: 'HiroRateLimitedError', message: /429 Too Many Requests\) after 3 attempt/, cursorHeight: 1 },
  },
];

/** Every object in the body gains fields the client does not know (the top one too, unless it is a map of ids). */
function withExtraFields(body: unknown, top = true): unknown {
  if (Array.isArray(body)) return body.map((item) => withExtraFields(item));
  if (typeof body !== 'object' || body === null) return body;
  const entries = Object.entries(body).map(([key, value]) => [key, withExtraFields(value)]);
  return Object.fromEntries(top ? [...entries, ['added_in_v9', { nested: [1, null] }]] : entries);
}

async function start(timeoutMs = 5_000): Promise<{ fake: FakeHiro; w: Watcher; clock: VirtualClock }> {
  const fake = createFakeHiro();
  chainWithAlerts(fake);
  server = await fake.start();
  const clock = new VirtualClock();
  const w = watcher(server.url, new DocumentStateStore(emptyDocument('mainnet')), undefined, {
    timeoutMs,
    maxRetries: 2,
    sleep: clock.sleep,
    now: clock.now,
  });
  return { fake, w, clock };
}

/** The cursor is on a block the watcher finished, every alert up to it went out, and none past it. */
async function expectIntact(fake: FakeHiro, w: Watcher, cursorHeight: number): Promise<void> {
  const cursor = await w.state.readCursor();
  expect(cursor?.height ?? 0).toBe(cursorHeight);
  if (cursor) expect(cursor.hash).toBe(fake.chain.block(cursor.height)!.hash);
  const upToCursor = canonicalAlertKeys(fake.chain).filter((key) => {
    const txId = key.split(':')[1]!;
    return fake.chain.findTx(txId)!.block.height <= cursorHeight;
  });
  expect([...w.publisher.keys()].sort()).toEqual(upToCursor.sort());
}

describe('hostile API answers through a whole cycle', () => {
  for (const c of CASES) {
    it(`${c.fails ? 'stops at a block boundary with the state intact' : 'completes'}, then alerts everything once: ${c.name}`, async () => {
      const { fake, w, clock } = await start(c.timeoutMs);
      c.fault(fake);
      const outcome = await w.run().then(
        (summary) => ({ summary, error: null }),
        (error: Error) => ({ summary: null, error }),
      );
      if (c.fails) {
        expect(outcome.error?.name, outcome.error?.message).toBe(c.fails.name);
        expect(outcome.error?.message).toMatch(c.fails.message);
        await expectIntact(fake, w, c.fails.cursorHeight);
      } else {
        expect(outcome.error).toBeNull();
        expect(outcome.summary).toMatchObject({ stoppedBecause: 'caught-up', cursor: { height: 6 } });
      }
      if (c.name.startsWith('a 429')) expect(clock.sleeps).toContain(7_000);

      fake.faults.clear();
      await w.runUntilCaughtUp(fake.chain);
      const counts = publishCounts(w.publisher);
      expect(new Set(counts.keys())).toEqual(new Set(canonicalAlertKeys(fake.chain)));
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
    });
  }
});
