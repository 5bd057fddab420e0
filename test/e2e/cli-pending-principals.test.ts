// Pending rules that name their principals read each principal's own mempool route once the whole list costs
// more a run: the real CLI against the fake API, on a busy mempool, beside an API without the principal route
// (404), which reads the list as before with one operator notice. Both alert the same, field for field; the
// run's log line says which way it read; a principal page's items that repeat or name someone else are ignored.
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { contractCall, fakeAddress, fakeContractId, ROUTES, transfer, type FakeChain } from '../support/fake-hiro';
import type { CliSuite } from '../support/cli-suite';
import { pendingSuite } from './pending-suite';
import { jsonLines } from './run-cli';
import { FileStateStore } from '../../lambda/adapters/file/file-state-store';

const attacker = fakeAddress('attacker');
const treasury = fakeAddress('treasury');
const exchange = fakeAddress('exchange');
const vault = fakeContractId('vault');

const config = {
  network: 'mainnet',
  calls: [{ contractId: vault, functions: ['set-owner', 'upgrade'], name: 'Owner change', severity: 'critical', pending: true }],
  transfers: [{ asset: 'stx', from: [treasury], minAmount: '1000000', name: 'Treasury outflow', severity: 'critical', pending: true }],
  startHeight: 1,
};

/** More than two list pages of waiting transactions nobody watches, with matching and unmatching ones among them. */
function busyRound(chain: FakeChain, round: number): void {
  for (let i = 0; i < 110; i++) {
    chain.submit(transfer({ from: fakeAddress(`user-${round}-${i}`), to: exchange, amount: i + 1 }));
    if (i === 20) chain.submit(contractCall({ contractId: vault, functionName: 'set-owner', sender: attacker, args: [Cl.uint(round)] }));
    if (i === 50) chain.submit(transfer({ from: treasury, to: exchange, amount: 250_000_000n + BigInt(round), memo: `round ${round}` }));
    if (i === 70) chain.submit(contractCall({ contractId: vault, functionName: 'deposit', sender: attacker }));
    if (i === 90) chain.submit(transfer({ from: exchange, to: treasury, amount: 9_000_000n }));
    if (i === 100) chain.submit(transfer({ from: treasury, to: exchange, amount: 5 }));
  }
}

async function run(suite: CliSuite) {
  suite.fake.clearLog();
  const result = await suite.run(suite.args(), { env: { LOG_LEVEL: 'debug' } });
  expect(result.code, result.stderr).toBe(0);
  // The run's log line: `… DEBUG cycle done {summary}`.
  const cycle = result.stderr.split('\n').find((line) => line.includes(' cycle done {'));
  return {
    ...result,
    pending: jsonLines(result.stdout).filter((line) => String(line.type).startsWith('pending_')),
    mempoolRead: cycle === undefined ? undefined : (JSON.parse(cycle.slice(cycle.indexOf('{'))) as { mempoolRead?: Record<string, unknown> }).mempoolRead,
    requests: { principal: suite.fake.count(ROUTES.principalMempool), list: suite.fake.count(ROUTES.v3Mempool) },
  };
}

describe('pending rules read per principal on a busy mempool, and the list on an API without the principal route', () => {
  const principals = pendingSuite('pending-principals', config, null);
  const list = pendingSuite('pending-principal-404', config, ROUTES.principalMempool);
  /** The stderr of the runs without the principal route, from the first that met its 404. */
  const listRuns: string[] = [];

  it('alerts the same waiting calls and transfers, field for field, either way, and says in the log line which way it read', async () => {
    const byPrincipal: Record<string, unknown>[] = [];
    const byList: Record<string, unknown>[] = [];
    for (let round = 1; round <= 4; round++) {
      busyRound(principals.chain, round);
      busyRound(list.chain, round);
      const [one, other] = [await run(principals), await run(list)];
      byPrincipal.push(...one.pending);
      byList.push(...other.pending);
      if (round <= 2) {
        // The first run reads a page, the second measures what the list costs a run: 3 pages.
        expect(one.mempoolRead).toMatchObject({ way: 'list', principals: 2 });
        expect(one.requests).toEqual({ principal: 0, list: round === 1 ? 1 : 3 });
        continue;
      }
      expect(one.mempoolRead).toEqual({
        way: 'principals',
        principals: 2,
        reason: '2 principal routes cost less than the 3 pages the list took a run',
        estimate: { principals: 2, list: 3 },
      });
      expect(one.requests).toEqual({ principal: 2, list: 0 });
      expect(other.mempoolRead).toEqual({ way: 'list', principals: 2, reason: 'the API has no principal mempool route', estimate: { principals: 2, list: 3 } });
      // A CLI run is a process of its own: the route's 404 once, then the list.
      expect(other.requests).toEqual({ principal: 1, list: 3 });
      listRuns.push(other.stderr);
    }
    // The first run's page held none that matched; each later run, a round's call and outflow.
    expect(byPrincipal.map((alert) => alert.type)).toEqual(Array.from({ length: 3 }, () => ['pending_call', 'pending_transfer']).flat());
    expect(byList).toEqual(byPrincipal);
  });

  it('tells the operator once that the API has no principal mempool route, not on every run', async () => {
    busyRound(list.chain, 5);
    listRuns.push((await run(list)).stderr);
    const notices = listRuns.map((stderr) => stderr.split('\n').filter((line) => line.includes('operatorNotice') && line.includes('/mempool/transactions')));
    expect(notices.map((lines) => lines.length)).toEqual([1, 0, 0]);
    expect(notices[0]![0]).toContain('/extended/v3/principals/{principal}/mempool/transactions');
  });

  it('reads nothing new twice: a run with nothing new waiting costs one request a principal and alerts nothing', async () => {
    const quiet = await run(principals);
    expect(quiet.pending).toEqual([]);
    expect(quiet.requests).toEqual({ principal: 2, list: 0 });
  });

  it('ignores, names and forgets items of a principal page that repeat or do not name the principal, and alerts the rest', async () => {
    const outflow = principals.chain.submit(transfer({ from: treasury, to: exchange, amount: 300_000_000n }));
    const forged = `0x${'f0'.repeat(32)}`;
    principals.fake.faults.once(
      {
        transform: (body) => {
          const page = body as { results: Record<string, unknown>[] };
          // A set-owner call on the watched vault that does not name the treasury, and the outflow twice.
          const foreign = { ...page.results[0], tx_id: forged, type: 'contract_call', sender: { address: attacker, nonce: 3 } };
          Object.assign(foreign, { token_transfer: undefined, contract_call: { contract_id: vault, function_name: 'set-owner' } });
          return { ...page, results: [foreign, page.results[0], page.results[0], ...page.results.slice(1)] };
        },
      },
      (r) => r.route === ROUTES.principalMempool && r.path.includes(treasury),
    );
    const { pending, stderr } = await run(principals);
    expect(pending.map((alert) => alert.key)).toEqual([`pending_transfer:${outflow.txId}`]);
    const warning = stderr.split('\n').find((line) => line.includes('cannot be believed'));
    expect(warning).toContain(forged);
    expect(warning).toContain('does not name the principal');
    expect(warning).toContain('repeats an earlier item');
    const { seen } = (await (await FileStateStore.open(principals.path('state.json'), 'mainnet')).readRecord('mempool'))!;
    expect(seen).toContain(outflow.txId);
    expect(seen).not.toContain(forged);
  });
});
