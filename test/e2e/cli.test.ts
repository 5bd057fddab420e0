import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { coinbase, contractCall, deploy, fakeAddress, fakeContractId, transfer } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';
import { API_PATHS, PrintedLines, useApiPath } from './api-paths';
import { StateJournal } from '../../lambda/adapters/file/state-journal';

const alice = fakeAddress('alice');
const bob = fakeAddress('bob');
const vault = fakeContractId('vault');
const router = fakeContractId('router');
const oracle = fakeContractId('oracle');

const printed = new PrintedLines();

describe.each(API_PATHS)('the CLI against a fake Hiro API, through a growing chain, on $name', (path) => {
  const suite = cliSuite({
    name: 'e2e',
    config: {
      network: 'mainnet',
      contracts: [vault, oracle],
      addresses: [alice],
      contractLogs: [{ contractId: vault }, { contractId: oracle, contains: 'price' }],
      startHeight: 1,
      confirmations: 0,
      maxBlocksPerRun: 500,
    },
  });
  const { fake, chain } = suite;
  useApiPath(fake, path);
  const expected = new Set<string>();

  const keysOf = (lines: Record<string, unknown>[]) => lines.map((l) => l.key as string);

  it('alerts exactly the matches of the first blocks: big block, many events, indirect log, failed transfer, empty block', async () => {
    chain.mine([coinbase(), deploy({ contractId: vault })]); // 1
    // 2: more than 50 transactions, the watched transfer is the 56th (second page)
    const filler = Array.from({ length: 55 }, (_, i) => transfer({ to: bob, amount: i + 1 }));
    const b2 = chain.mine([...filler, transfer({ to: alice, amount: 1_250_500_000n, memo: 'rent' })]);
    expected.add(`token_transfer:${b2.txs[55]!.txId}`);
    // 3: a transaction with 150 events, the vault prints at 5 and 120; and a failed transfer to alice
    const logs = Array.from({ length: 150 }, (_, i) =>
      i === 5 || i === 120 ? { printer: vault, value: `deposit-${i}` } : { printer: router, value: `noise-${i}` },
    );
    const b3 = chain.mine([contractCall({ contractId: router, logs }), transfer({ to: alice, amount: 9, status: 'abort_by_post_condition' })]);
    expected.add(`contract_log:${b3.txs[0]!.txId}:5`).add(`contract_log:${b3.txs[0]!.txId}:120`);
    chain.mineEmpty(1); // 4
    // 5: an indirect log (router calls the oracle), filtered by `contains`
    const b5 = chain.mine([
      contractCall({
        contractId: router,
        logs: [
          { printer: oracle, value: 'price-update' },
          { printer: oracle, value: 'heartbeat' },
        ],
      }),
    ]);
    expected.add(`contract_log:${b5.txs[0]!.txId}:0`);

    const run = await suite.run(suite.args());
    expect(run.code, run.stderr).toBe(0);
    const alerts = jsonLines(printed.record(path, run.stdout));
    const statusKeys = [`contract_status:${vault}:1`, `contract_status:${oracle}:1`];
    expect(new Set(keysOf(alerts))).toEqual(new Set([...statusKeys, ...expected]));
    expect(keysOf(alerts)).toHaveLength(statusKeys.length + expected.size);
    expect(alerts.find((a) => a.type === 'token_transfer')).toMatchObject({ recipient: alice, amount: '1250500000', block_height: 2 });
    const state = (await new StateJournal(suite.path('state.json')).read())!;
    expect(state.cursor).toMatchObject({ height: 5, hash: chain.tip!.hash });
  });

  it('alerts only the new blocks on the next run, and nothing twice after a reorg', async () => {
    const b6 = chain.mine([transfer({ to: alice, amount: 7 })]);
    const moved = b6.txs[0]!.txId;
    const run1 = await suite.run(suite.args());
    expect(keysOf(jsonLines(printed.record(path, run1.stdout)))).toEqual([`token_transfer:${moved}`]);

    // Block 6 is replaced; its transfer comes back in block 7 with a new one beside it.
    const replaced = chain.reorg(1, [[coinbase()], [{ ...transfer({ to: alice, amount: 7 }), txId: moved }, transfer({ to: alice, amount: 8 })]]);
    const fresh = replaced[1]!.txs[1]!.txId;
    const run2 = await suite.run(suite.args());
    expect(run2.code, run2.stderr).toBe(0);
    expect(keysOf(jsonLines(printed.record(path, run2.stdout)))).toEqual([`token_transfer:${fresh}`]);
    expect(run2.stderr).toMatch(/reorg/);
    const state = (await new StateJournal(suite.path('state.json')).read())!;
    expect(state.cursor).toMatchObject({ height: 7, hash: chain.tip!.hash });
  });

  it('pipes cleanly through `npm start --silent -- --once --json`: nothing but one JSON alert per line on stdout', async () => {
    const block = chain.mine([transfer({ to: alice, amount: 11 })]);
    const run = await suite.run(suite.args(), { viaNpm: true, timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${JSON.stringify(jsonLines(run.stdout)[0])}\n`);
    expect(jsonLines(run.stdout)[0]).toMatchObject({ type: 'token_transfer', key: `token_transfer:${block.txs[0]!.txId}`, amount: '11' });
  });

  it('rejects an invalid config with exit code 2, naming each problem, and writes no state', async () => {
    const bad = await suite.write('bad.json', { network: 'mainnet', addresses: ['ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM', 'nope'], startHeight: 1.5 });
    const state = suite.path('untouched.json');
    const requestsBefore = fake.requests.length;
    const run = await suite.run(['--once', '--config', bad, '--state', state]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/addresses\[0\]/);
    expect(run.stderr).toMatch(/addresses\[1\]/);
    expect(run.stderr).toMatch(/startHeight/);
    await expect(readFile(state)).rejects.toThrow(/ENOENT/);
    expect(fake.requests.length).toBe(requestsBefore); // refused before any request
  });

  it('ends a usage error with the mistake and where the help is, not the whole help', async () => {
    const run = await suite.run(['--once', '--no-such-option']);
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/no-such-option/);
    expect(lines[1]).toBe('(npm start -- --help lists every option)');
  });

  it('prints usage for --help and exits 0', async () => {
    const run = await suite.run(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--once/);
    expect(run.stdout).toMatch(/STACKS_API_KEY/);
  });

  it('lists the chat channels that are on and the host each posts to in --help and --check, warning of a misspelled variable', async () => {
    const env = { SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T1/B2/SLACKSECRET', DISCORD_URL: 'https://discord.com/api/webhooks/1/DISCORDSECRET' };
    for (const args of [['--help'], ['--check', '--config', suite.configPath]]) {
      const run = await suite.run(args, { env });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Chat: slack posts to hooks.slack.com');
      expect(run.stdout).toContain('DISCORD_URL is set, but no chat channel reads it: did you mean DISCORD_WEBHOOK_URL?');
      expect(run.stdout + run.stderr).not.toMatch(/SLACKSECRET|DISCORDSECRET/);
    }
  });

  it('warns of a misspelled channel variable when it runs', async () => {
    const run = await suite.run(suite.args('misspelled.json'), { env: { TELEGRAM_TOKEN: '123:TGSECRET' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/WARN .*TELEGRAM_TOKEN is set, but no chat channel reads it: did you mean TELEGRAM_BOT_TOKEN\?/);
    expect(run.stderr).not.toContain('TGSECRET');
  });
});

printed.samePrintedLines('the CLI through a growing chain');
