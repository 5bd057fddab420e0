// FETCH_WAY on `npm start`: the real CLI against the fake API with every deprecated route answering 410. With
// `auto`, or unset (auto is the default), a cycle reads what the plan says: 2 tracked addresses per subject, 20
// by the block scan while the deprecated routes answer; `block-scan` keeps the block scan; `--check` and
// `--status` say which way the runner reads; a way it does not know stops the start (exit 2) naming the variable.
import { describe, expect, it } from 'vitest';
import { DEPRECATED_CHAIN_READS, fakeAddress, ROUTES, transfer } from '../support/fake-hiro';
import { type CliSuite, cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';

const alice = fakeAddress('alice');

describe('npm start with FETCH_WAY', () => {
  const suite = cliSuite({
    name: 'fetch-way',
    config: { network: 'mainnet', addresses: [alice], startHeight: 1 },
    setup: ({ chain, fake }) => {
      for (let i = 0; i < 3; i++) chain.mine([transfer({ to: alice, amount: 10 + i })]);
      fake.retire(...DEPRECATED_CHAIN_READS);
    },
  });

  it('reads the tracked address per subject with FETCH_WAY=auto, alerting each transfer once', async () => {
    suite.fake.clearLog();
    const run = await suite.run(suite.args('auto.json'), { env: { FETCH_WAY: 'auto' } });

    expect(run.code, run.stderr).toBe(0);
    expect(suite.fake.count(ROUTES.principalTransactions)).toBeGreaterThan(0);
    expect(jsonLines(run.stdout).map((a) => a.amount)).toEqual(['10', '11', '12']);
  });

  it('keeps the block scan with FETCH_WAY=block-scan: no per-subject route is read', async () => {
    suite.fake.clearLog();
    const run = await suite.run(suite.args('scan.json'), { env: { FETCH_WAY: 'block-scan' } });

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
    expect(status.stdout).toContain('    this runner reads as the plan says (FETCH_WAY=auto, the default)\n');

    const scan = await suite.run(['--check', '--config', suite.configPath], { env: { FETCH_WAY: 'block-scan' } });
    expect(scan.stdout).toContain('    this runner reads by the block scan (FETCH_WAY=block-scan)\n');

    const unset = await suite.run(['--check', '--config', suite.configPath]);
    expect(unset.stdout).toContain('    this runner reads as the plan says (FETCH_WAY=auto, the default)\n');
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

describe('npm start without FETCH_WAY (auto, the default)', () => {
  const bob = fakeAddress('bob');
  const payments = ({ chain, fake }: CliSuite) => {
    for (let i = 0; i < 6; i++)
      chain.mine([transfer({ to: i % 2 === 0 ? alice : bob, amount: 10 + i }), transfer({ to: fakeAddress(`noise-${i}`), amount: 1 })]);
    fake.retire(...DEPRECATED_CHAIN_READS);
  };
  const twoSubjects = cliSuite({ name: 'fetch-way-two', config: { network: 'mainnet', addresses: [alice, bob], startHeight: 1 }, setup: payments });
  // 20 addresses while the deprecated routes answer: one request a subject costs more than a batched block scan.
  const many = Array.from({ length: 18 }, (_, i) => fakeAddress(`many-${i}`));
  const twenty = cliSuite({
    name: 'fetch-way-twenty',
    config: { network: 'mainnet', addresses: [alice, bob, ...many], startHeight: 1 },
    setup: ({ chain }: CliSuite) => {
      for (let i = 0; i < 6; i++)
        chain.mine([transfer({ to: i % 2 === 0 ? alice : bob, amount: 10 + i }), transfer({ to: fakeAddress(`noise-${i}`), amount: 1 })]);
    },
  });

  it('reads a watch of 2 addresses per subject, no block transactions read, each payment alerted once', async () => {
    twoSubjects.fake.clearLog();
    const run = await twoSubjects.run(twoSubjects.args('two.json'));

    expect(run.code, run.stderr).toBe(0);
    expect(twoSubjects.fake.count(ROUTES.principalTransactions)).toBeGreaterThan(0);
    expect(twoSubjects.fake.count(ROUTES.v3BlockTransactions)).toBe(0);
    expect(jsonLines(run.stdout).map((a) => a.amount)).toEqual(['10', '11', '12', '13', '14', '15']);
  });

  it('keeps the block scan where the plan finds it cheaper: 20 addresses while the deprecated routes answer', async () => {
    twenty.fake.clearLog();
    const run = await twenty.run(twenty.args('twenty.json'));

    expect(run.code, run.stderr).toBe(0);
    expect(twenty.fake.count(ROUTES.principalTransactions)).toBe(0);
    expect(twenty.fake.count(ROUTES.blockTransactions)).toBeGreaterThan(0);
    expect(jsonLines(run.stdout).map((a) => a.amount)).toEqual(['10', '11', '12', '13', '14', '15']);
  });
});
