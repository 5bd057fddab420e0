// The CLI killed (SIGKILL) at several points of a run over the real state file, then run again until it
// has caught up: every alert printed at least once, none more than twice, and a second print only for an
// alert the killed run had printed and not yet marked sent.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coinbase, contractCall, createFakeHiro, deploy, fakeAddress, fakeContractId, transfer, type RunningFakeHiro } from '../support/fake-hiro';
import { bundleCli, KillableCli, printedKeys, type KillTrigger } from './killable-cli';
import { loadCliInProcess } from '../support/cli-in-process';
import { StateJournal } from '../../lambda/adapters/file/state-journal';

const alice = fakeAddress('alice');
const vault = fakeContractId('vault');
/** Runs allowed after the killed one: one may meet a claim the dead run left, one more finishes. */
const MAX_RERUNS = 3;

interface KillPoint {
  name: string;
  /** Kill while the fake API holds the run's Nth request unanswered. */
  request?: number;
  line?: KillTrigger['line'];
}

const KILL_POINTS: KillPoint[] = [
  { name: 'while the tip request is in flight (statuses delivered)', request: 2 },
  { name: 'while a block is being read', request: 4 },
  { name: 'while the events of a later block are being read', request: 9 },
  { name: 'after printing the first alert', line: { stream: 'stdout', match: /"key"/, nth: 1 } },
  { name: 'after printing the fourth alert', line: { stream: 'stdout', match: /"key"/, nth: 4 } },
  { name: 'after moving the cursor past the second block', line: { stream: 'stderr', match: /block scanned/, nth: 2 } },
];

describe('the CLI killed at any point, then run again until done', () => {
  const fake = createFakeHiro();
  const expected: string[] = [];
  const table: string[] = [];
  let server: RunningFakeHiro;
  let dir: string;
  let config: string;
  let cliPath: string;

  beforeAll(async () => {
    const { chain } = fake;
    chain.mine([coinbase(), deploy({ contractId: vault })]);
    const b2 = chain.mine([transfer({ to: alice, amount: 1 }), contractCall({ contractId: vault, logs: ['a', 'b'] })]);
    chain.mineEmpty(1);
    const b4 = chain.mine([transfer({ to: alice, amount: 2 }), transfer({ to: alice, amount: 3 })]);
    const b5 = chain.mine([contractCall({ contractId: vault, logs: ['c'] })]);
    expected.push(
      `contract_status:${vault}:1`,
      `token_transfer:${b2.txs[0]!.txId}`,
      `contract_log:${b2.txs[1]!.txId}:0`,
      `contract_log:${b2.txs[1]!.txId}:1`,
      `token_transfer:${b4.txs[0]!.txId}`,
      `token_transfer:${b4.txs[1]!.txId}`,
      `contract_log:${b5.txs[0]!.txId}:0`,
    );
    server = await fake.start();
    dir = await mkdtemp(join(tmpdir(), 'stacks-watch-kill-'));
    cliPath = await bundleCli(dir);
    await loadCliInProcess();
    config = join(dir, 'watch.json');
    await writeFile(
      config,
      JSON.stringify({ network: 'mainnet', contracts: [vault], addresses: [alice], contractLogs: [{ contractId: vault }], startHeight: 1 }),
    );
  });
  afterAll(async () => {
    console.log(['CLI killed, then rerun:', 'kill point | runs | alerts | printed | duplicates', ...table].join('\n'));
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  for (const [index, point] of KILL_POINTS.entries()) {
    it(`prints every alert, a second time only if the kill came between printing and marking it: ${point.name}`, async () => {
      const state = join(dir, `state-${index}.json`);
      const args = ['--once', '--json', '--config', config, '--state', state];
      // The kill points count the block scan's requests (tip, block, events).
      const env = { STACKS_API_URL: server.url, STACKS_API_RPM: '100000', LOG_LEVEL: 'debug', FETCH_WAY: 'block-scan' };
      const cli = new KillableCli(cliPath);
      const firstRequest = fake.requests.length + 1;
      const stopFaults = fake.faults.use((request) => {
        if (point.request === undefined || request.seq - firstRequest + 1 !== point.request) return undefined;
        cli.kill();
        return { delayMs: 5_000 }; // never answered: the process dies waiting
      });

      const counts = new Map<string, number>();
      const mayRepeat = new Set<string>();
      let runs = 0;
      let done = false;
      try {
        const killed = await cli.run(args, env, point.line ? { line: point.line } : {});
        runs += 1;
        expect(killed.killed, killed.stderr).toBe(true);
        const printed = printedKeys(killed.stdout);
        const records = await alertRecords(state);
        for (const key of printed) if (records[key] !== 'sent') mayRepeat.add(key);
        count(counts, printed);
      } finally {
        stopFaults();
      }
      while (!done && runs <= MAX_RERUNS) {
        const rerun = await cli.runToEnd(args, env);
        runs += 1;
        expect(rerun.code, rerun.stderr).toBe(0);
        count(counts, printedKeys(rerun.stdout));
        done = (await cursorHeight(state)) === fake.chain.height && /"stoppedBecause":"caught-up"/.test(rerun.stderr);
      }

      const duplicated = [...counts].filter(([, n]) => n > 1).map(([key]) => key);
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      table.push(`${point.name} | ${runs} | ${expected.length} | ${total} | ${duplicated.length}`);
      expect(done).toBe(true);
      expect(new Set(counts.keys())).toEqual(new Set(expected));
      for (const n of counts.values()) expect(n).toBeLessThanOrEqual(2);
      for (const key of duplicated) expect([...mayRepeat]).toContain(key);
    });
  }
});

function count(counts: Map<string, number>, keys: readonly string[]): void {
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
}

async function readState(path: string): Promise<{ cursor: { height: number } | null; alerts: Record<string, { state: string }> } | null> {
  // The snapshot with its journal applied, as the next run reads it; null when killed before the first write.
  return (await new StateJournal(path).read()) as Awaited<ReturnType<typeof readState>>;
}

async function alertRecords(path: string): Promise<Record<string, string>> {
  const doc = await readState(path);
  return Object.fromEntries(Object.entries(doc?.alerts ?? {}).map(([key, record]) => [key, record.state]));
}

async function cursorHeight(path: string): Promise<number | null> {
  return (await readState(path))?.cursor?.height ?? null;
}
