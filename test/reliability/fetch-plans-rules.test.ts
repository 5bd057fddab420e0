// The end-to-end chains of calls, windows, balances and pending rules (test/e2e/cli-calls, cli-windows,
// cli-balances-retired, cli-pending)
// read both ways, the block scan and per subject, with every deprecated route answering 410: the same alerts,
// field for field, in the same order. fetch-plans.test.ts holds transfers, logs, memos and reorgs to the same.
import { Cl } from '@stacks/transactions';
import { afterEach, describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import {
  DEPRECATED_CHAIN_READS,
  coinbase,
  contractCall,
  createFakeHiro,
  fakeAddress,
  fakeContractId,
  ftTransferEvent,
  transfer,
  type FakeHiro,
  type RunningFakeHiro,
} from '../support/fake-hiro';
import { watchConfig, watchersBothWays, type Watcher } from './watched-chain';

let server: RunningFakeHiro | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const T0 = 1_750_000_000;
const owner = fakeAddress('owner');
const attacker = fakeAddress('attacker');
const vault = fakeContractId('vault');
const router = fakeContractId('router');

/** A watcher each way on `fake`'s chain, every deprecated route retired: `catchUp` runs both to the tip. */
async function bothWays(fake: FakeHiro, config: Record<string, unknown>) {
  fake.retire(...DEPRECATED_CHAIN_READS);
  server = await fake.start();
  const parsed = parseWatchConfig({ network: 'mainnet', startHeight: 1, confirmations: 0, ...config });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const { scan, subjects } = watchersBothWays(server.url, watchConfig(parsed.config));
  const alerts = (w: Watcher) => w.publisher.sent.map((sent) => sent.alert as { type: string });
  return {
    async catchUp() {
      await scan.runUntilCaughtUp(fake.chain);
      await subjects.runUntilCaughtUp(fake.chain);
    },
    /** What each way alerted, and the plans the per-subject watcher logged. */
    read: () => ({
      scan: alerts(scan),
      subjects: alerts(subjects),
      plans: subjects.telemetry.logs.filter((line) => line.message.startsWith('fetch plan: ')).map((line) => line.message),
    }),
  };
}

/** Both ways caught up once on the chain as mined. */
async function readBothWays(fake: FakeHiro, config: Record<string, unknown>) {
  const ways = await bothWays(fake, config);
  await ways.catchUp();
  return ways.read();
}

/** The per-subject watcher really read per subject, every run: no rule of the chain sent it back to the block scan. */
function expectEveryRunPerSubject(plans: readonly string[]): void {
  expect(plans).toContain('fetch plan: per subject');
  expect(plans.filter((plan) => plan !== 'fetch plan: per subject')).toEqual([]);
}

const types = (alerts: readonly { type: string }[]) => alerts.map((alert) => alert.type);

describe('the block scan and the per-subject source alert the same on calls, windows, balances and pending rules', () => {
  it('calls to a watched contract with their arguments and results, beside the logs it printed directly and through a router', async () => {
    const fake = createFakeHiro();
    fake.chain.mine([coinbase()]);
    for (let i = 0; i < 3; i++) {
      fake.chain.mine([
        contractCall({
          contractId: vault,
          functionName: 'withdraw',
          sender: owner,
          args: [Cl.uint(5_000 + i)],
          result: Cl.ok(Cl.uint(5_000 + i)),
          logs: [`w-${i}`],
        }),
        contractCall({
          contractId: vault,
          functionName: 'withdraw',
          sender: attacker,
          args: [Cl.uint(9)],
          result: Cl.error(Cl.uint(102)),
          status: 'abort_by_response',
        }),
        contractCall({ contractId: vault, functionName: 'deposit', sender: owner, args: [Cl.uint(1)] }),
        contractCall({ contractId: router, functionName: 'route', logs: [{ printer: vault, value: `routed-${i}` }] }),
      ]);
      if (i === 1) fake.chain.mine([contractCall({ contractId: vault, functionName: 'set-owner', sender: attacker, args: [Cl.principal(attacker)] })]);
    }
    const { scan, subjects, plans } = await readBothWays(fake, {
      addresses: [],
      contractLogs: [{ contractId: vault }],
      calls: [
        { contractId: vault, functions: ['withdraw'], status: 'any' },
        { contractId: vault, functions: ['set-owner'], severity: 'critical', name: 'owner changed' },
      ],
    });

    expect(types(scan).filter((type) => type === 'contract_call')).toHaveLength(7);
    expect(types(scan).filter((type) => type === 'contract_log')).toHaveLength(6);
    expect(subjects).toEqual(scan);
    expectEveryRunPerSubject(plans);
  });

  it('windows that cross by a sum past 2^53 and by a count of failed calls, fall below by block time and cross again', async () => {
    const fake = createFakeHiro();
    const treasury = fakeAddress('treasury');
    const [alice, bob] = [fakeAddress('alice'), fakeAddress('bob')];
    const failed = () =>
      contractCall({
        contractId: vault,
        functionName: 'withdraw',
        sender: alice,
        status: 'abort_by_response',
        args: [Cl.uint(5)],
        result: Cl.error(Cl.uint(102)),
      });
    const at = (seconds: number, txs: Parameters<typeof fake.chain.mine>[0]) => fake.chain.mine(txs, { time: T0 + seconds });
    at(0, [coinbase()]);
    at(60, [transfer({ from: treasury, to: alice, amount: 6_000_000_000_000_000_000n })]);
    at(120, [transfer({ from: treasury, to: bob, amount: 5_000_000_000_000_000_000n }), transfer({ to: treasury, amount: 7n })]);
    at(3660, [coinbase()]);
    at(3700, [transfer({ from: treasury, to: bob, amount: 5_000_000_000_000_000_000n })]);
    at(4000, [failed(), failed(), failed(), contractCall({ contractId: vault, functionName: 'withdraw', sender: bob })]);
    at(4100, [failed()]);
    at(4200, [failed()]);
    at(4620, [coinbase()]);
    at(4690, [failed(), failed(), failed()]);
    const { scan, subjects, plans } = await readBothWays(fake, {
      addresses: [],
      contractLogs: [],
      transfers: [{ name: 'treasury outflows', asset: 'stx', from: [treasury], alert: false }],
      calls: [{ name: 'vault withdraw failed', contractId: vault, functions: ['withdraw'], status: 'failed' }],
      windows: [
        { name: 'treasury drain', of: 'treasury outflows', minutes: 60, sum: 'amount', atLeast: '10000000000000000000', severity: 'critical' },
        { name: 'withdraw failures', of: 'vault withdraw failed', minutes: 10, count: 5, severity: 'critical' },
      ],
    });

    expect(types(scan).filter((type) => type === 'window_threshold')).toHaveLength(4);
    expect(subjects).toEqual(scan);
    expectEveryRunPerSubject(plans);
  });

  it('balances that start below a threshold, drain by fees and sponsored fees, and cross a token cap', async () => {
    const fake = createFakeHiro();
    const [relayer, user, dry] = [fakeAddress('relayer'), fakeAddress('user'), fakeAddress('dry-wallet')];
    const bridge = fakeContractId('bridge');
    const sbtc = `${fakeContractId('sbtc-token')}::sbtc-token`;
    fake.chain.setGenesisBalance(relayer, 'stx', 50_010_000);
    fake.chain.setGenesisBalance(vault, sbtc, 2_000);
    fake.chain.setGenesisBalance(dry, 'stx', 10);
    fake.chain.mine([coinbase()]);
    fake.chain.mine([{ ...contractCall({ contractId: bridge, sender: relayer }), feeRate: '6000' }]);
    fake.chain.mine([{ ...contractCall({ contractId: bridge, sender: user }), feeRate: '7000', sponsor: relayer }]);
    fake.chain.mine([contractCall({ contractId: bridge, events: [ftTransferEvent(sbtc, user, vault, 600)] })]);
    fake.chain.mine([transfer({ to: relayer, amount: 1_000_000 }), transfer({ to: dry, amount: 5_000 })]);
    fake.chain.mine([{ ...contractCall({ contractId: bridge, sender: relayer }), feeRate: '1500000' }]); // below again
    const { scan, subjects, plans } = await readBothWays(fake, {
      addresses: [],
      contractLogs: [],
      startHeight: 2,
      balances: [
        { name: 'relayer gas', address: relayer, asset: 'stx', below: '50000000', severity: 'critical' },
        { name: 'vault cap', address: vault, asset: sbtc, above: '2500', decimals: 8, symbol: 'sBTC' },
        { name: 'dry wallet', address: dry, asset: 'stx', below: 1000 },
      ],
    });

    // The dry wallet's first check, the relayer's fees, the vault's cap, and the relayer below again after a top-up.
    expect(scan.map((alert) => (alert as { rule?: string }).rule)).toEqual(['dry wallet', 'relayer gas', 'vault cap', 'relayer gas']);
    expect(subjects).toEqual(scan);
    expectEveryRunPerSubject(plans);
  });

  it('pending calls and transfers: seen waiting, then mined with their pending key, or dropped with its reason', async () => {
    const fake = createFakeHiro();
    const [treasury, exchange] = [fakeAddress('treasury'), fakeAddress('exchange')];
    fake.chain.mine([coinbase()]);
    const ways = await bothWays(fake, {
      addresses: [],
      contractLogs: [],
      calls: [{ contractId: vault, functions: ['set-owner', 'upgrade'], name: 'Owner change', severity: 'critical', pending: true }],
      transfers: [{ asset: 'stx', from: [treasury], minAmount: '1000000', name: 'Treasury outflow', pending: true }],
    });
    const setOwner = fake.chain.submit(contractCall({ contractId: vault, functionName: 'set-owner', sender: attacker, args: [Cl.principal(attacker)] }));
    const outflow = fake.chain.submit(transfer({ from: treasury, to: exchange, amount: 250_000_000n, memo: 'acct 42' }));
    fake.chain.submit(contractCall({ contractId: vault, functionName: 'deposit', sender: attacker }));
    await ways.catchUp();
    fake.chain.mine([coinbase(), setOwner as never, outflow as never]);
    const upgrade = fake.chain.submit(contractCall({ contractId: vault, functionName: 'upgrade', sender: attacker }));
    await ways.catchUp();
    fake.chain.drop(upgrade.txId, 'dropped_too_expensive');
    fake.chain.mine([coinbase()]);
    await ways.catchUp();

    const { scan, subjects, plans } = ways.read();
    expect(types(scan)).toEqual(['pending_call', 'pending_transfer', 'contract_call', 'token_transfer', 'pending_call', 'pending_dropped']);
    const pendingKeys = scan.map((alert) => (alert as { pending_key?: string | null }).pending_key ?? null);
    expect(pendingKeys).toEqual([null, null, `pending_call:${setOwner.txId}`, `pending_transfer:${outflow.txId}`, null, `pending_call:${upgrade.txId}`]);
    expect(subjects).toEqual(scan);
    expectEveryRunPerSubject(plans);
  });
});
