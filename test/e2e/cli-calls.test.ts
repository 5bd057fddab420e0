// Calls to a watched contract and the logs printed around them, end to end through both API paths: the real
// CLI against the fake Hiro API alerts each matching call once with its decoded arguments and result (which
// the v3 routes give only on the transaction route), and prints the same lines through v2 and v3.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cl } from '@stacks/transactions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coinbase, contractCall, createFakeHiro, fakeAddress, fakeContractId, ROUTES, type RunningFakeHiro } from '../support/fake-hiro';
import { API_PATHS, PrintedLines, useApiPath } from './api-paths';
import { jsonLines, runCli } from './run-cli';

const owner = fakeAddress('owner');
const attacker = fakeAddress('attacker');
const vault = fakeContractId('vault');
const router = fakeContractId('router');
const printed = new PrintedLines();

describe.each(API_PATHS)('the CLI alerts calls to a watched contract, on $name', (path) => {
  const fake = createFakeHiro();
  const chain = fake.chain;
  let server: RunningFakeHiro;
  let dir: string;
  let env: Record<string, string>;
  let args: string[];

  beforeAll(async () => {
    server = await fake.start();
    useApiPath(fake, path);
    dir = await mkdtemp(join(tmpdir(), 'stacks-watch-calls-'));
    await writeFile(
      join(dir, 'watch.json'),
      JSON.stringify({
        network: 'mainnet',
        contractLogs: [{ contractId: vault }],
        calls: [
          { contractId: vault, functions: ['withdraw'], status: 'any' },
          { contractId: vault, functions: ['set-owner'], severity: 'critical', name: 'owner changed' },
        ],
        startHeight: 1,
      }),
    );
    env = { STACKS_API_URL: server.url, STACKS_API_RPM: '100000' };
    args = ['--once', '--json', '--config', join(dir, 'watch.json'), '--state', join(dir, 'state.json')];
  }, 20_000);
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('alerts each matching call once with its arguments and result, beside the logs, and no other call', async () => {
    chain.mine([coinbase()]);
    const block = chain.mine([
      contractCall({ contractId: vault, functionName: 'withdraw', sender: owner, args: [Cl.uint(5_000), Cl.principal(owner)], result: Cl.ok(Cl.uint(5_000)), logs: ['withdrawn'] }),
      contractCall({ contractId: vault, functionName: 'withdraw', sender: attacker, args: [Cl.uint(9_999_999)], result: Cl.error(Cl.uint(102)), status: 'abort_by_response' }),
      contractCall({ contractId: vault, functionName: 'deposit', sender: owner, args: [Cl.uint(1)] }),
      contractCall({ contractId: router, functionName: 'route', logs: [{ printer: vault, value: 'routed' }] }),
      contractCall({ contractId: vault, functionName: 'set-owner', sender: attacker, args: [Cl.principal(attacker)] }),
    ]);
    const tx = (i: number) => block.txs[i]!.txId;

    const run = await runCli(args, env);
    expect(run.code, run.stderr).toBe(0);
    const alerts = jsonLines(printed.record(path, run.stdout));

    expect(alerts.map((a) => a.key)).toEqual([
      `contract_call:${tx(0)}`,
      `contract_log:${tx(0)}:0`,
      `contract_call:${tx(1)}`,
      `contract_log:${tx(3)}:0`,
      `contract_call:${tx(4)}`,
    ]);
    const calls = alerts.filter((a) => a.type === 'contract_call');
    expect(calls.map((a) => [a.function_name, a.args, a.result_repr, a.tx_status])).toEqual([
      ['withdraw', ['u5000', owner], '(ok u5000)', 'success'],
      ['withdraw', ['u9999999'], '(err u102)', 'abort_by_response'],
      ['set-owner', [attacker], '(ok true)', 'success'],
    ]);
    expect(calls[2]).toMatchObject({ rule: 'owner changed', severity: 'critical' });
    // The v3 path asks the transaction route for the three alerting calls only.
    expect(fake.count(ROUTES.v3Transaction)).toBe(path.retired.length > 0 ? 3 : 0);
  }, 30_000);

  it('shows the arguments and result at the terminal', async () => {
    const block = chain.mine([contractCall({ contractId: vault, functionName: 'withdraw', sender: owner, args: [Cl.uint(7)], result: Cl.ok(Cl.bool(true)) })]);

    const run = await runCli(args.filter((a) => a !== '--json'), env);

    expect(run.code, run.stderr).toBe(0);
    printed.record(path, run.stdout);
    expect(run.stdout).toContain(`withdraw on vault called (block ${block.height})`);
    expect(run.stdout).toMatch(/1\. u7/);
    expect(run.stdout).not.toMatch(/not listed by the API|not given by the API/);
  }, 30_000);
});

printed.samePrintedLines('the CLI alerting calls');
