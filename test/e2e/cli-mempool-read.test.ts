// How the pending rules read the mempool, in the operator's words: `--check` says when a watch of few principals
// reads each principal's own mempool route rather than the whole list, at what cost a cycle, and that the list is
// read first to measure it; `--status` says which way the next run reads, its estimated requests and why, from
// the choice the run makes (the same words as the run's `cycle done` line), and the next run then reads that way.
// The real CLI against the fake API, on a mempool busy enough that the list takes three pages a run.
import { describe, expect, it } from 'vitest';
import { coinbase, fakeAddress, fakeContractId, ROUTES, transfer, type FakeChain } from '../support/fake-hiro';
import { cliSuite, type CliSuite } from '../support/cli-suite';

const treasury = fakeAddress('treasury');
const exchange = fakeAddress('exchange');
const vault = fakeContractId('vault');

const config = {
  network: 'mainnet',
  calls: [{ contractId: vault, functions: ['set-owner'], name: 'Owner change', pending: true }],
  transfers: [{ asset: 'stx', from: [treasury], minAmount: '1000000', name: 'Treasury outflow', pending: true }],
  startHeight: 1,
};

/** More than two list pages of waiting transfers nobody watches. */
function busy(chain: FakeChain, round: number): void {
  for (let i = 0; i < 110; i++) chain.submit(transfer({ from: fakeAddress(`user-${round}-${i}`), to: exchange, amount: i + 1 }));
}

/** One `--once` run: how its `cycle done` line says it read the mempool, and the requests it made there. */
async function run(suite: CliSuite) {
  suite.fake.clearLog();
  const result = await suite.run(suite.args(), { env: { LOG_LEVEL: 'debug' } });
  expect(result.code, result.stderr).toBe(0);
  const cycle = result.stderr.split('\n').find((line) => line.includes(' cycle done {'));
  expect(cycle, result.stderr).toBeDefined();
  const { mempoolRead } = JSON.parse(cycle!.slice(cycle!.indexOf('{'))) as { mempoolRead: { way: string; reason: string; estimate: unknown } };
  return { mempoolRead, requests: { principal: suite.fake.count(ROUTES.principalMempool), list: suite.fake.count(ROUTES.v3Mempool) } };
}

async function status(suite: CliSuite): Promise<string> {
  const result = await suite.run(['--status', '--config', suite.configPath, '--state', suite.path('state.json')]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

/** The block of `--status` or `--check` output about the mempool: its heading line and the indented lines under it. */
function mempoolBlock(output: string): string {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => line.startsWith('- reading the mempool'));
  expect(start, output).toBeGreaterThanOrEqual(0);
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => !line.startsWith('    '));
  return [lines[start], ...rest.slice(0, end)].join('\n');
}

describe('--check says how the pending rules read the mempool, at what cost and when', () => {
  const suite = cliSuite({ name: 'mempool-read-check', config });

  it('for 2 principals: the list first to measure it, then their own routes while the list takes 3 pages a cycle', async () => {
    const check = await suite.run(['--check', '--config', suite.configPath]);
    expect(check.code, check.stderr).toBe(0);
    expect(mempoolBlock(check.stdout)).toBe(
      [
        '- reading the mempool for the pending rules (2 principals named):',
        "    each principal's own mempool route, about 2 requests a cycle, while the whole list takes 3 pages a cycle (50 transactions a page), as last measured",
        '    else the whole list, 1 to 3 requests a cycle (newest first, until a transaction seen before)',
        '    the first run reads the list to measure what it costs, and measures it again once the measure is 10 min old',
        '    an API without the principal mempool route (it answers 404) is read through the list, with one notice',
      ].join('\n'),
    );
  });

  it('for 3 principals: always the whole list, since their routes never cost less than its 3 pages at most', async () => {
    const three = { ...config, transfers: [{ ...config.transfers[0], to: [exchange] }] };
    const check = await suite.run(['--check', '--config', await suite.write('three.json', three)]);
    expect(check.code, check.stderr).toBe(0);
    expect(mempoolBlock(check.stdout)).toBe(
      [
        '- reading the mempool for the pending rules (3 principals named):',
        "    the whole list, 1 to 3 requests a cycle (newest first, until a transaction seen before): 3 principals' own routes would cost no less than the list at its most, 3 pages a cycle",
      ].join('\n'),
    );
  });

  it('says nothing of the mempool without pending rules', async () => {
    const check = await suite.run(['--check', '--config', await suite.write('none.json', { network: 'mainnet', addresses: [treasury] })]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).not.toContain('reading the mempool');
  });
});

describe('--status says which way the next run reads the mempool, its cost and why, and the run reads that way', () => {
  const suite = cliSuite({ name: 'mempool-read-status', config, setup: ({ chain }) => chain.mine([coinbase()]) });

  it('before any run: the whole list, to measure it; the run reads the list for the reason said', async () => {
    const said = mempoolBlock(await status(suite));
    expect(said).toBe(
      [
        '- reading the mempool for the pending rules (2 principals named), the next run:',
        '    the whole list, 1 to 3 requests (newest first, until a transaction seen before): measuring what the list costs a run',
      ].join('\n'),
    );
    busy(suite.chain, 1);
    const first = await run(suite);
    expect(first.mempoolRead).toMatchObject({ way: 'list', reason: 'measuring what the list costs a run' });
    expect(said).toContain(`: ${first.mempoolRead.reason}`);
  });

  it('once the list took 3 pages a run: 2 principal routes, about 2 requests; the next run reads them, for the same reason', async () => {
    busy(suite.chain, 2);
    const measuring = await run(suite);
    expect(measuring.requests).toEqual({ principal: 0, list: 3 });

    const said = mempoolBlock(await status(suite));
    expect(said).toMatch(
      new RegExp(
        [
          String.raw`^- reading the mempool for the pending rules \(2 principals named\), the next run:`,
          String.raw`    each principal's own mempool route, about 2 requests: 2 principal routes cost less than the 3 pages the list took a run`,
          String.raw`    the list's 3 pages a run were measured \d+ s ago, and are measured again once 10 min old`,
          String.raw`    the last run read the whole list`,
          String.raw`    an API without the principal mempool route \(it answers 404\) is read through the list, with one notice$`,
        ].join('\n'),
      ),
    );
    busy(suite.chain, 3);
    const next = await run(suite);
    expect(next.mempoolRead).toEqual({
      way: 'principals',
      principals: 2,
      reason: '2 principal routes cost less than the 3 pages the list took a run',
      estimate: { principals: 2, list: 3 },
    });
    expect(said).toContain(`: ${next.mempoolRead.reason}\n`);
    expect(next.requests).toEqual({ principal: 2, list: 0 });
    expect(mempoolBlock(await status(suite))).toContain("\n    the last run read each principal's own mempool route");
  });
});
