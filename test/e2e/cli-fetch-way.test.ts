// FETCH_WAY on `npm start`: the real CLI against the fake API with every deprecated route answering 410. With
// `auto` a cycle reads the tracked address per subject; unset it keeps the block scan; `--check` and `--status`
// say which way the runner reads; a way it does not know stops the start (exit 2) naming the variable.
import { describe, expect, it } from 'vitest';
import { fakeAddress, ROUTES, transfer } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';

const alice = fakeAddress('alice');
const RETIRED = [ROUTES.blockTransactions, ROUTES.txMultiple, ROUTES.block, ROUTES.balances];

describe('npm start with FETCH_WAY', () => {
  const suite = cliSuite({
    name: 'fetch-way',
    config: { network: 'mainnet', addresses: [alice], startHeight: 1 },
    setup: ({ chain, fake }) => {
      for (let i = 0; i < 3; i++) chain.mine([transfer({ to: alice, amount: 10 + i })]);
      fake.retire(...RETIRED);
    },
  });

  it('reads the tracked address per subject with FETCH_WAY=auto, alerting each transfer once', async () => {
    suite.fake.clearLog();
    const run = await suite.run(suite.args('auto.json'), { env: { FETCH_WAY: 'auto' } });

    expect(run.code, run.stderr).toBe(0);
    expect(suite.fake.count(ROUTES.principalTransactions)).toBeGreaterThan(0);
    expect(jsonLines(run.stdout).map((a) => a.amount)).toEqual(['10', '11', '12']);
  });

  it('keeps the block scan without FETCH_WAY: no per-subject route is read', async () => {
    suite.fake.clearLog();
    const run = await suite.run(suite.args('unset.json'));

    expect(run.code, run.stderr).toBe(0);
    expect(suite.fake.count(ROUTES.principalTransactions)).toBe(0);
    expect(jsonLines(run.stdout).map((a) => a.amount)).toEqual(['10', '11', '12']);
  });

  it('says the way in --check and --status', async () => {
    const check = await suite.run(['--check', '--config', suite.configPath], { env: { FETCH_WAY: 'per-subject' } });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('    this runner reads per subject wherever the rules allow (FETCH_WAY=per-subject)\n');

    const status = await suite.run(['--status', '--config', suite.configPath, '--state', suite.path('auto.json')], { env: { FETCH_WAY: 'auto' } });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('    this runner reads as the plan says (FETCH_WAY=auto)\n');

    const unset = await suite.run(['--check', '--config', suite.configPath]);
    expect(unset.stdout).toContain('    this runner reads by the block scan (FETCH_WAY=block-scan, the default; auto follows the plan)\n');
  });

  it('refuses a FETCH_WAY it does not know with exit 2, naming the variable, before any cycle', async () => {
    suite.fake.clearLog();
    const run = await suite.run(suite.args('bad.json'), { env: { FETCH_WAY: 'per_subject' } });

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('FETCH_WAY must be block-scan, auto, per-subject, got "per_subject"');
    expect(run.stdout).toBe('');
    expect(suite.fake.count(ROUTES.principalTransactions) + suite.fake.count(ROUTES.blockTransactions)).toBe(0);
  });
});
