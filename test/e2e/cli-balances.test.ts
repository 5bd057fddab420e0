// Balance thresholds end to end: the real CLI against the fake Hiro API, a relayer drained by fees alone,
// refilled and drained again; a vault's token balance crossing `above`; a wallet already below at the first
// check; a reorg undoing a crossing; the same blocks tried again with --replay. The API's balance is read once
// per address to start, never per block; a rule whose first block is 1 starts from nothing held, with no request.
import { describe, expect, it } from 'vitest';
import { coinbase, contractCall, fakeAddress, fakeContractId, ftTransferEvent, ROUTES, transfer } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';

const relayer = fakeAddress('relayer');
const dry = fakeAddress('dry-wallet');
const user = fakeAddress('user');
const treasury = fakeAddress('treasury');
const bridge = fakeContractId('bridge');
const vault = fakeContractId('vault');
const sbtc = `${fakeContractId('sbtc-token')}::sbtc-token`;

/** A call by the relayer that moves nothing: only its fee touches the balance. */
const relay = (fee: number, sponsor?: string) => ({
  ...contractCall({ contractId: bridge, sender: sponsor ? user : relayer }),
  feeRate: String(fee),
  ...(sponsor ? { sponsor } : {}),
});

const pick = (alerts: Record<string, unknown>[]) =>
  alerts.map(({ key, type, rule, crossed, balance, previous_balance, threshold, tx_id, block_height }) => ({
    key,
    type,
    rule,
    crossed,
    balance,
    previous_balance,
    threshold,
    tx_id,
    block_height,
  }));

describe('the CLI alerts balances crossing their thresholds', () => {
  const suite = cliSuite({
    name: 'balances',
    config: {
      network: 'mainnet',
      // Nothing is held before block 1: the watch starts at block 2, its first checks read at block 1.
      startHeight: 2,
      balances: [
        { name: 'relayer gas', address: relayer, asset: 'stx', below: '50000000', severity: 'critical' },
        { name: 'vault cap', address: vault, asset: sbtc, above: '2500', decimals: 8, symbol: 'sBTC' },
        { name: 'dry wallet', address: dry, asset: 'stx', below: 1000 },
      ],
    },
    setup: ({ chain }) => {
      chain.setGenesisBalance(relayer, 'stx', 50_010_000);
      chain.setGenesisBalance(vault, sbtc, 2_000);
      chain.setGenesisBalance(dry, 'stx', 10);
    },
    setupTimeoutMs: 20_000,
  });
  const { fake, chain } = suite;
  const seen: Record<string, unknown>[] = [];

  it('alerts a first check already below, and fees alone draining the relayer, in the block and transaction that crossed', async () => {
    const b1 = chain.mine([coinbase()]);
    const b2 = chain.mine([relay(4_000), relay(4_000)]); // 50,002,000: still above
    const b3 = chain.mine([transfer({ to: treasury, amount: 5, from: user }), relay(4_000)]); // 49,998,000: crossed at tx 1
    const run = await suite.run(suite.args());
    expect(run.code, run.stderr).toBe(0);
    const alerts = jsonLines(run.stdout);
    seen.push(...alerts);
    expect(pick(alerts)).toEqual([
      {
        key: `balance_threshold:dry wallet|${dry}|stx|1000|:below:read:${b1.height}`,
        type: 'balance_threshold',
        rule: 'dry wallet',
        crossed: 'below',
        balance: '10',
        previous_balance: null,
        threshold: '1000',
        tx_id: null,
        block_height: b2.height,
      },
      {
        key: `balance_threshold:relayer gas|${relayer}|stx|50000000|:below:${b3.txs[1]!.txId}`,
        type: 'balance_threshold',
        rule: 'relayer gas',
        crossed: 'below',
        balance: '49998000',
        previous_balance: '50002000',
        threshold: '50000000',
        tx_id: b3.txs[1]!.txId,
        block_height: b3.height,
      },
    ]);
    // One read per address to start (at the block before the first), none per block.
    expect(fake.count(ROUTES.balances)).toBe(3);
  }, 30_000);

  it('says nothing when the relayer is refilled, and alerts again when a sponsored transaction drains it', async () => {
    chain.mine([transfer({ to: relayer, amount: 1_000_000, from: treasury })]); // 50,998,000: back above, no alert
    chain.mine([relay(500_000)]); // 50,498,000
    const b6 = chain.mine([relay(600_000, relayer)]); // sponsored by the relayer: 49,898,000
    const run = await suite.run(suite.args());
    expect(run.code, run.stderr).toBe(0);
    const alerts = jsonLines(run.stdout);
    seen.push(...alerts);
    expect(pick(alerts)).toEqual([
      expect.objectContaining({
        rule: 'relayer gas',
        crossed: 'below',
        balance: '49898000',
        previous_balance: '50498000',
        tx_id: b6.txs[0]!.txId,
        block_height: b6.height,
      }),
    ]);
    // The kept balances came from the state file: no new read.
    expect(fake.count(ROUTES.balances)).toBe(3);
  }, 30_000);

  it('alerts a token balance crossing above, in its units', async () => {
    const b7 = chain.mine([contractCall({ contractId: bridge, events: [ftTransferEvent(sbtc, treasury, vault, 600)] })]);
    const run = await suite.run(suite.args());
    expect(run.code, run.stderr).toBe(0);
    const alerts = jsonLines(run.stdout);
    seen.push(...alerts);
    expect(alerts).toEqual([
      expect.objectContaining({
        type: 'balance_threshold',
        rule: 'vault cap',
        address: vault,
        asset_id: sbtc,
        crossed: 'above',
        balance: '2600',
        previous_balance: '2000',
        threshold: '2500',
        tx_id: b7.txs[0]!.txId,
        decimals: 8,
        symbol: 'sBTC',
      }),
    ]);
    const text = await suite.run(['--replay', String(b7.height), '--config', suite.configPath]);
    expect(text.stdout).toContain('spendable STX');
    expect(text.stdout).not.toContain('undefined');
  }, 30_000);

  it('gives the same alerts with --replay over the same blocks', async () => {
    const replay = await suite.run(['--replay', `2..${chain.height}`, '--json', '--config', suite.configPath]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(pick(jsonLines(replay.stdout))).toEqual(pick(seen));
  }, 30_000);

  it("warns at its start of an STX amount under 1 STX written without a unit (the dry wallet's 1000), and of no other", async () => {
    const run = await suite.run(suite.args());
    expect(run.code, run.stderr).toBe(0);
    const warnings = run.stderr.split('\n').filter((line) => line.includes('without a unit'));
    expect(warnings).toEqual([expect.stringContaining('$.balances[2].below is 1000 without a unit, so 1000 micro-STX (0.001 STX): did you mean "1,000 STX"?')]);
  }, 30_000);
});

describe('a reorg that undoes a balance crossing', () => {
  const suite = cliSuite({
    name: 'balances-reorg',
    config: { network: 'mainnet', startHeight: 2, balances: [{ name: 'relayer gas', address: relayer, asset: 'stx', below: '50000000' }] },
    setup: ({ chain }) => chain.setGenesisBalance(relayer, 'stx', 50_005_000),
    setupTimeoutMs: 20_000,
  });
  const { fake, chain } = suite;

  it('retracts the crossing, restores the balance, and alerts the next real crossing once', async () => {
    chain.mine([coinbase()]); // history: the watch starts at block 2
    chain.mine([coinbase()]);
    const lost = chain.mine([relay(10_000)]); // 49,995,000: crossed
    const key = `balance_threshold:relayer gas|${relayer}|stx|50000000|:below:${lost.txs[0]!.txId}`;
    const run1 = await suite.run(suite.args());
    expect(run1.code, run1.stderr).toBe(0);
    expect(jsonLines(run1.stdout).map((a) => a.key)).toEqual([key]);

    // The new chain has no such transaction: the balance is back at 50,005,000 and above the threshold.
    chain.reorg(1, [[coinbase()]]);
    for (let i = 0; i < 11; i += 1) chain.mine([coinbase()]);
    const run2 = await suite.run(suite.args());
    expect(run2.code, run2.stderr).toBe(0);
    expect(jsonLines(run2.stdout)).toEqual([
      expect.objectContaining({
        type: 'retraction',
        retracts: key,
        retracted_type: 'balance_threshold',
        address: relayer,
        asset_id: 'stx',
        tx_id: lost.txs[0]!.txId,
      }),
    ]);

    // Restored, not reread: 50,005,000 less 4,000 stays above; less 2,000 more crosses.
    chain.mine([relay(4_000)]);
    const crossing = chain.mine([relay(2_000)]);
    const run3 = await suite.run(suite.args());
    expect(run3.code, run3.stderr).toBe(0);
    expect(jsonLines(run3.stdout)).toEqual([
      expect.objectContaining({ crossed: 'below', balance: '49999000', previous_balance: '50001000', tx_id: crossing.txs[0]!.txId }),
    ]);
    expect(fake.count(ROUTES.balances)).toBe(1);
  }, 60_000);
});

describe('a balance rule whose first block is 1', () => {
  const suite = cliSuite({
    name: 'balances-block-1',
    config: { network: 'mainnet', startHeight: 1, balances: [{ name: 'treasury cap', address: treasury, asset: 'stx', above: 1_000 }] },
    setupTimeoutMs: 20_000,
  });
  const { fake, chain } = suite;

  it('starts from nothing held before block 1, without a request, and alerts the block-1 transfer that crossed', async () => {
    const b1 = chain.mine([transfer({ to: treasury, amount: 5_000, from: user })]);
    const run = await suite.run(suite.args());
    expect(run.code, run.stderr).toBe(0);
    expect(pick(jsonLines(run.stdout))).toEqual([
      expect.objectContaining({ rule: 'treasury cap', crossed: 'above', balance: '5000', previous_balance: '0', tx_id: b1.txs[0]!.txId, block_height: 1 }),
    ]);
    expect(fake.count(ROUTES.balances)).toBe(0);
  }, 30_000);
});
