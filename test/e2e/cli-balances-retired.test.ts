// Balance thresholds end to end once Hiro has retired the v1 balances route (410 Gone): the same chains as
// cli-balances.test.ts, run side by side on an API that still answers it and on one that does not, give the
// same alerts field for field. Without the route a rule starts from the balance now (the v3 balance routes) less
// the principal's changes since (its v3 transactions, its token transfers). A balance that cannot be rebuilt
// (an API before the token transfer routes) is told to the operator at the first run, never skipped silently.
import { describe, expect, it } from 'vitest';
import { coinbase, contractCall, createFakeHiro, fakeAddress, fakeContractId, ftTransferEvent, ROUTES, transfer, type FakeChain } from '../support/fake-hiro';
import { cliSuite, type CliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';

const relayer = fakeAddress('relayer');
const dry = fakeAddress('dry-wallet');
const user = fakeAddress('user');
const treasury = fakeAddress('treasury');
const bridge = fakeContractId('bridge');
const vault = fakeContractId('vault');
const sbtc = `${fakeContractId('sbtc-token')}::sbtc-token`;

const relay = (fee: number, sponsor?: string) => ({
  ...contractCall({ contractId: bridge, sender: sponsor ? user : relayer }),
  feeRate: String(fee),
  ...(sponsor ? { sponsor } : {}),
});

const rules = [
  { name: 'relayer gas', address: relayer, asset: 'stx', below: '50000000', severity: 'critical' },
  { name: 'vault cap', address: vault, asset: sbtc, above: '2500', decimals: 8, symbol: 'sBTC' },
  { name: 'dry wallet', address: dry, asset: 'stx', below: 1000 },
];

/** The same config and genesis on an API that answers the v1 balances route and on one that has retired it. */
function pair(name: string, config: unknown, genesis: (chain: FakeChain) => void): { v1: CliSuite; retired: CliSuite } {
  const suite = (retired: boolean) =>
    cliSuite({
      name: `${name}-${retired ? 'retired' : 'v1'}`,
      config,
      setup: ({ chain, fake }) => {
        genesis(chain);
        if (retired) fake.retire(ROUTES.balances);
      },
      setupTimeoutMs: 20_000,
    });
  return { v1: suite(false), retired: suite(true) };
}

async function alerts(suite: CliSuite, args = suite.args()): Promise<Record<string, unknown>[]> {
  const run = await suite.run(args);
  expect(run.code, run.stderr).toBe(0);
  return jsonLines(run.stdout);
}

/** Runs both, each after `script` mined the same blocks on its chain; the alerts of the run that answers 410. */
async function both(suites: { v1: CliSuite; retired: CliSuite }, script: (chain: FakeChain) => void): Promise<Record<string, unknown>[]> {
  script(suites.v1.chain);
  script(suites.retired.chain);
  const [fromV1, fromChanges] = [await alerts(suites.v1), await alerts(suites.retired)];
  expect(fromChanges).toEqual(fromV1);
  return fromChanges;
}

describe('balance rules with the v1 balances route retired', () => {
  const suites = pair('balances', { network: 'mainnet', startHeight: 2, balances: rules }, (chain) => {
    chain.setGenesisBalance(relayer, 'stx', 50_010_000);
    chain.setGenesisBalance(vault, sbtc, 2_000);
    chain.setGenesisBalance(dry, 'stx', 10);
  });
  const { retired } = suites;

  it('alerts a first check already below and fees draining the relayer as the v1 route does, from the balance now less the changes since', async () => {
    const found = await both(suites, (chain) => {
      chain.mine([coinbase()]);
      chain.mine([relay(4_000), relay(4_000)]);
      chain.mine([transfer({ to: treasury, amount: 5, from: user }), relay(4_000)]);
      // Blocks past the cursor's height: the balance now holds them, the changes since take them back.
      chain.mine([relay(7_000)]);
    });
    expect(found.map((a) => [a.rule, a.crossed, a.balance])).toEqual([
      ['dry wallet', 'below', '10'],
      ['relayer gas', 'below', '49998000'],
    ]);
    // The three reads of the first block go out together, each answered 410; every one rebuilt from the v3 routes.
    expect(retired.fake.count(ROUTES.balances)).toBe(3);
    expect(retired.fake.count(ROUTES.stxBalance)).toBe(2);
    expect(retired.fake.count(ROUTES.ftBalances)).toBe(1);
  }, 60_000);

  it('alerts a sponsored drain and a token crossing above as the v1 route does, and again with --replay', async () => {
    await both(suites, (chain) => {
      chain.mine([transfer({ to: relayer, amount: 1_000_000, from: treasury })]);
      chain.mine([relay(500_000)]);
      chain.mine([relay(600_000, relayer)]);
    });
    await both(suites, (chain) => chain.mine([contractCall({ contractId: bridge, events: [ftTransferEvent(sbtc, treasury, vault, 600)] })]));
    const replay = (suite: CliSuite) => alerts(suite, ['--replay', `2..${suite.chain.height}`, '--json', '--config', suite.configPath]);
    const [fromV1, fromChanges] = [await replay(suites.v1), await replay(retired)];
    expect(fromChanges.map((a) => a.key)).toHaveLength(4);
    expect(fromChanges).toEqual(fromV1);
  }, 60_000);
});

describe('a reorg that undoes a balance crossing, with the v1 balances route retired', () => {
  const suites = pair('balances-reorg', { network: 'mainnet', startHeight: 2, balances: [rules[0]] }, (chain) =>
    chain.setGenesisBalance(relayer, 'stx', 50_005_000),
  );

  it('retracts the crossing and alerts the next real crossing once, as the v1 route does', async () => {
    const first = await both(suites, (chain) => {
      chain.mine([coinbase()]);
      chain.mine([coinbase()]);
      chain.mine([relay(10_000)]);
    });
    expect(first.map((a) => a.crossed)).toEqual(['below']);
    const second = await both(suites, (chain) => {
      chain.reorg(1, [[coinbase()]]);
      for (let i = 0; i < 11; i += 1) chain.mine([coinbase()]);
    });
    expect(second.map((a) => a.type)).toEqual(['retraction']);
    const third = await both(suites, (chain) => {
      chain.mine([relay(4_000)]);
      chain.mine([relay(2_000)]);
    });
    expect(third.map((a) => a.balance)).toEqual(['49999000']);
  }, 90_000);
});

describe('a balance that cannot be rebuilt', () => {
  // An API before 9.1.0: the principal's transactions and balances answer, its token transfers do not.
  const suite = cliSuite({
    name: 'balances-unavailable',
    fake: createFakeHiro({ subjectRoutes: 'before-9.1' }),
    config: { network: 'mainnet', startHeight: 2, balances: rules.slice(0, 2) },
    setup: ({ chain, fake }) => {
      chain.setGenesisBalance(relayer, 'stx', 50_001_000);
      chain.setGenesisBalance(vault, sbtc, 2_000);
      fake.retire(ROUTES.balances);
    },
    setupTimeoutMs: 20_000,
  });

  it('tells the operator at the first run, naming the route, while the STX rule on the same API alerts', async () => {
    suite.chain.mine([coinbase()]);
    const crossing = suite.chain.mine([relay(2_000)]);
    suite.chain.mine([contractCall({ contractId: bridge, events: [ftTransferEvent(sbtc, treasury, vault, 600)] })]);
    const run = await suite.run(suite.args());
    expect(run.code, run.stderr).toBe(0);
    expect(jsonLines(run.stdout).map((a) => [a.rule, a.tx_id])).toEqual([['relayer gas', crossing.txs[0]!.txId]]);
    const notices = run.stderr.split('\n').filter((line) => line.includes('operatorNotice') && line.includes('could not read the balance'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(vault);
    expect(notices[0]).toContain('/transfers/ft/');
  }, 60_000);
});
