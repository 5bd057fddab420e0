// The local runner says what is true: its version, each request at LOG_LEVEL=debug (never the key), an API
// that never answers named within the README's "about 10 s", and `history` listing what was alerted with its
// delivery state, all through the real CLI against the fake Hiro API.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { coinbase, createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';
import { cliSuite, cliTempDir } from '../support/cli-suite';
import { jsonLines, runCli } from './run-cli';
import { RETRACTION_GRACE_BLOCKS } from '../../lambda/core/scan/retractions';

const alice = fakeAddress('alice');
const API_KEY = 'sk-test-0123456789abcdef';
const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const temp = cliTempDir('runner');
const files = (name: string) => temp.files(name, { network: 'mainnet', addresses: [alice], startHeight: 1, confirmations: 0 });

describe('npm start -- --version', () => {
  it('prints the package version and exits 0', async () => {
    const run = await runCli(['--version'], {});
    expect(run).toMatchObject({ code: 0, stdout: `stacks-watch ${version}\n`, stderr: '' });
  });
});

describe('against the fake API', () => {
  const suite = cliSuite({ name: 'runner-api', fake: createFakeHiro({ deprecationWarnings: false }), setup: ({ chain }) => chain.mine([coinbase()]) });
  const { fake } = suite;
  const env = () => suite.env;

  it('logs each request at LOG_LEVEL=debug with method, route, status and ms, and never the API key', async () => {
    const { configPath, statePath } = await files('debug');
    const run = await runCli(['--once', '--json', '--config', configPath, '--state', statePath], { ...env(), LOG_LEVEL: 'debug', STACKS_API_KEY: API_KEY });
    expect(run.code, run.stderr).toBe(0);
    const requests = run.stderr.split('\n').filter((line) => / DEBUG GET \//.test(line));
    expect(requests[0]).toMatch(/ DEBUG GET \/v2\/info 200 \d+ ms$/);
    expect(requests.some((line) => /GET \/extended\/\S+ 200 \d+ ms$/.test(line))).toBe(true);
    expect(requests.length).toBeGreaterThanOrEqual(3);
    expect(run.stderr + run.stdout).not.toContain(API_KEY);
  });

  it('logs no request at the default level', async () => {
    const { configPath, statePath } = await files('info');
    const run = await runCli(['--once', '--json', '--config', configPath, '--state', statePath], env());
    expect(run.stderr).not.toMatch(/GET \/v2\/info/);
  });

  it('exits 1 within the README\'s "about 10 s" when the API takes the connection but never answers', async () => {
    const { configPath, statePath } = await files('hang');
    const stop = fake.faults.use(() => ({ delayMs: 120_000 }));
    try {
      // Bounded below a cycle client's five 10 s attempts: the old behaviour (about a minute) fails here.
      const run = await runCli(['--once', '--config', configPath, '--state', statePath], env(), { timeoutMs: 14_000 });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `cannot reach the Stacks API at ${new URL(suite.server.url).host}: GET /v2/info: no answer from the API (timed out after 3500 ms) after 2 attempt(s)`,
      );
    } finally {
      stop();
    }
  }, 20_000);

  it('history lists what was alerted with its delivery state, sent then retracted by a reorg, as JSON or lines', async () => {
    const { configPath, statePath } = await files('history');
    const cycle = ['--once', '--json', '--config', configPath, '--state', statePath];
    fake.chain.mine([transfer({ to: alice, amount: 5_000_000n })]);
    const first = await runCli(cycle, env());
    const [alerted] = jsonLines(first.stdout);
    expect(alerted?.type).toBe('token_transfer');

    const sent = jsonLines((await runCli(['history', '--json', '--state', statePath], {})).stdout);
    expect(sent).toEqual([expect.objectContaining({ key: alerted!.key, type: 'token_transfer', state: 'sent', alertedAt: expect.stringMatching(/Z$/) })]);

    fake.chain.reorg(1, [[coinbase()], [coinbase()]]);
    await runCli(cycle, env());
    fake.chain.mineEmpty(RETRACTION_GRACE_BLOCKS + 2); // a replaced block's alert is retracted past the grace blocks
    await runCli(cycle, env());
    const lines = await runCli(['history', '--state', statePath, '--since', '1h'], {});
    expect(lines.code).toBe(0);
    expect(lines.stdout).toMatch(/^\d{4}-\d\d-\d\dT[\d:]+Z {2}retracted {2}.*STX/m);
    expect(lines.stdout).toMatch(/\d+ alerts since .* \(.*1 retracted.*\)\n$/);
    const future = await runCli(['history', '--json', '--state', statePath, '--since', '2999-01-01'], {});
    expect(future.stdout).toBe('');
  }, 60_000);
});

describe('npm start -- history on a state file', () => {
  const DAY = 86_400_000;
  const now = Date.now();
  const record = (state: string, sentAt: number, extra: Record<string, unknown> = {}) => ({
    state,
    claimedAt: sentAt,
    sentAt,
    expiresAt: sentAt + 30 * DAY,
    alert: { type: 'deep_reorg', key: `deep_reorg:${sentAt}`, network: 'mainnet', depth: 1200, forkHeight: 10, tipHeight: 20 },
    ...extra,
  });

  it('shows sent, parked (with why) and retracted records, and nothing past its 30 days', async () => {
    const statePath = await temp.write('crafted-state.json', {
      format: 1,
      network: 'mainnet',
      cursor: null,
      lease: null,
      blocks: {},
      contracts: {},
      alerts: {
        'deep_reorg:a': record('sent', now - 2 * DAY),
        'deep_reorg:b': record('parked', now - DAY, { sentAt: undefined, reason: 'message too large' }),
        'deep_reorg:c': record('retracted', now - 3_600_000),
        'deep_reorg:old': record('sent', now - 31 * DAY),
      },
    });
    const all = jsonLines((await runCli(['history', '--json', '--state', statePath], {})).stdout);
    expect(all.map((e) => [e.key, e.state])).toEqual([
      ['deep_reorg:a', 'sent'],
      ['deep_reorg:b', 'parked'],
      ['deep_reorg:c', 'retracted'],
    ]);
    expect(all[1]).toMatchObject({ reason: 'message too large' });
    const recent = await runCli(['history', '--since', '36h', '--state', statePath], {});
    expect(recent.stdout).toContain('(parked: message too large)');
    expect(recent.stdout).toMatch(/2 alerts since .* \(1 parked, 1 retracted\)\n$/);
  });

  it('names a --since it cannot read as the last thing printed, exit 2', async () => {
    const run = await runCli(['history', '--since', 'yesterday'], {});
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n').at(-2)).toMatch(/^--since takes a date .* got "yesterday"$/);
  });
});
