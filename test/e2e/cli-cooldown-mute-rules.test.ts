// Cooldowns and mutes end to end: the real CLI against the fake Hiro API. A treasury rule with a 10-minute
// cooldown alerts once, holds the next 40 outflows and sends one cooldown_summary when a block's time ends the
// cooldown; a deposits rule muted "during tonight's upgrade" sends nothing, records its matches as muted,
// `--status` shows it and what it held, and once the mute is over its alerts resume. `--replay` of the same
// blocks gives the same alerts, and the state file keeps each held and muted match with its reason.
import { describe, expect, it } from 'vitest';
import { coinbase, fakeAddress, transfer } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';
import { StateJournal } from '../../lambda/adapters/file/state-journal';

const treasury = fakeAddress('treasury');
const exchange = fakeAddress('exchange');
const deposits = fakeAddress('deposits');
/** Two hours ago, on a minute: the chain's blocks are dated from here. */
const T0 = Math.floor(Date.now() / 60_000) * 60 - 7_200;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
const MUTED_UNTIL = T0 + 300;

describe('the CLI with a cooldown and a mute', () => {
  const suite = cliSuite({
    name: 'quiet',
    config: {
      network: 'mainnet',
      transfers: [
        { name: 'treasury outflow', severity: 'critical', asset: 'stx', from: [treasury], cooldownMinutes: 10 },
        { name: 'deposits', asset: 'stx', to: [deposits], mutedUntil: iso(MUTED_UNTIL) },
      ],
      startHeight: 1,
    },
    setupTimeoutMs: 20_000,
  });
  const { fake } = suite;
  const args = () => ['--config', suite.configPath, '--state', suite.path('state.json')];
  const sent: string[] = [];
  let firstOutflow = '';
  const heldOutflows: string[] = [];
  let mutedDeposit = '';

  it('sends the first outflow, holds 40 and mutes the deposit during the mute', async () => {
    fake.chain.mine([coinbase()], { time: T0 });
    const b2 = fake.chain.mine([transfer({ from: treasury, to: exchange, amount: 1_000_000 }), transfer({ to: deposits, amount: 5 })], { time: T0 + 10 });
    firstOutflow = b2.txs[0]!.txId;
    mutedDeposit = b2.txs[1]!.txId;
    for (let b = 0; b < 4; b++) {
      const block = fake.chain.mine(
        Array.from({ length: 10 }, (_, i) => transfer({ from: treasury, to: exchange, amount: 100 + i })),
        { time: T0 + 60 * (b + 1) },
      );
      heldOutflows.push(...block.txs.map((tx) => tx.txId));
    }
    const run = await suite.run([...args(), '--once', '--json'], { timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    const alerts = jsonLines(run.stdout);
    sent.push(...alerts.map((a) => a.key as string));
    expect(alerts.map((a) => [a.rule, a.tx_id])).toEqual([['treasury outflow', firstOutflow]]);

    const records = (await new StateJournal(suite.path('state.json')).read())!.alerts as Record<string, { state: string; reason?: string }>;
    const states = Object.values(records).map((r) => r.state);
    expect(states.filter((s) => s === 'held')).toHaveLength(40);
    expect(states.filter((s) => s === 'muted')).toHaveLength(1);
    expect(Object.entries(records).find(([key]) => key.includes(mutedDeposit))?.[1]).toMatchObject({
      state: 'muted',
      reason: expect.stringContaining(iso(MUTED_UNTIL)),
    });
  }, 40_000);

  it('--status shows the muted rule and what it held, and the cooldown running with its count', async () => {
    const run = await suite.run([...args(), '--status'], { timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`"deposits" muted until ${iso(MUTED_UNTIL)}, ended: 1 match held (block 2)`);
    expect(run.stdout).toContain('cooldown running: "treasury outflow" (10 min after');
    expect(run.stdout).toContain('40 matches held (blocks 3–6)');
  }, 40_000);

  it("sends one summary of the 40 when a block's time ends the cooldown, and the deposits alert again once the mute is over", async () => {
    const deposit = fake.chain.mine([transfer({ to: deposits, amount: 7 })], { time: MUTED_UNTIL + 100 });
    fake.chain.mine([coinbase()], { time: T0 + 10 + 600 });
    const run = await suite.run([...args(), '--once', '--json'], { timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    const alerts = jsonLines(run.stdout);
    sent.push(...alerts.map((a) => a.key as string));
    expect(alerts.map((a) => a.type)).toEqual(['token_transfer', 'cooldown_summary']);
    expect(alerts[0]).toMatchObject({ rule: 'deposits', tx_id: deposit.txs[0]!.txId });
    expect(alerts[1]).toMatchObject({ rule: 'treasury outflow', severity: 'critical', held: 40, from_height: 3, to_height: 6, ended_at_height: 8 });
    expect((alerts[1]!.held_alerts as { tx_id: string }[]).map((h) => h.tx_id)).toEqual(heldOutflows.slice(0, 5));

    const again = await suite.run([...args(), '--once', '--json'], { timeoutMs: 30_000 });
    expect(jsonLines(again.stdout)).toEqual([]);
  }, 40_000);

  it('--replay of the same blocks gives the same alerts, says how many it held or muted, and asks the API nothing more for it', async () => {
    const before = fake.requests.length;
    const run = await suite.run(['--config', suite.configPath, '--replay', '1..8', '--json'], { timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout).map((a) => a.key)).toEqual(sent);
    expect(run.stderr).toContain('41 held by cooldowns or muted');
    const withQuiet = fake.requests.length - before;

    const rules = [
      { name: 'treasury outflow', severity: 'critical', asset: 'stx', from: [treasury] },
      { name: 'deposits', asset: 'stx', to: [deposits] },
    ];
    const plain = await suite.write('plain.json', { network: 'mainnet', transfers: rules, startHeight: 1 });
    const middle = fake.requests.length;
    const unquiet = await suite.run(['--config', plain, '--replay', '1..8', '--json'], { timeoutMs: 30_000 });
    expect(jsonLines(unquiet.stdout)).toHaveLength(43);
    expect(withQuiet).toBe(fake.requests.length - middle);
  }, 40_000);
});
