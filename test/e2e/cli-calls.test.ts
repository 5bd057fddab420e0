// Calls to a watched contract and the logs printed around them, end to end through both API paths: the real
// CLI against the fake Hiro API alerts each matching call once with its decoded arguments and result (which
// the v3 routes give only on the transaction route), and prints the same lines through v2 and v3.
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { coinbase, contractCall, fakeAddress, fakeContractId, ROUTES } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { API_PATHS, PrintedLines, useApiPath } from './api-paths';
import { jsonLines } from './run-cli';

const owner = fakeAddress('owner');
const attacker = fakeAddress('attacker');
const vault = fakeContractId('vault');
const router = fakeContractId('router');
const printed = new PrintedLines();

describe.each(API_PATHS)('the CLI alerts calls to a watched contract, on $name', (path) => {
  const suite = cliSuite({
    name: 'calls',
    config: {
      network: 'mainnet',
      contractLogs: [{ contractId: vault }],
      calls: [
        { contractId: vault, functions: ['withdraw'], status: 'any' },
        { contractId: vault, functions: ['set-owner'], severity: 'critical', name: 'owner changed' },
      ],
      startHeight: 1,
    },
    setupTimeoutMs: 20_000,
  });
  const { fake, chain } = suite;
  useApiPath(fake, path);

  it('alerts each matching call once with its arguments and result, beside the logs, and no other call', async () => {
    chain.mine([coinbase()]);
    const block = chain.mine([
      contractCall({
        contractId: vault,
        functionName: 'withdraw',
        sender: owner,
        args: [Cl.uint(5_000), Cl.principal(owner)],
        result: Cl.ok(Cl.uint(5_000)),
        logs: ['withdrawn'],
      }),
      contractCall({
        contractId: vault,
        functionName: 'withdraw',
        sender: attacker,
        args: [Cl.uint(9_999_999)],
        result: Cl.error(Cl.uint(102)),
        status: 'abort_by_response',
      }),
      contractCall({ contractId: vault, functionName: 'deposit', sender: owner, args: [Cl.uint(1)] }),
      contractCall({ contractId: router, functionName: 'route', logs: [{ printer: vault, value: 'routed' }] }),
      contractCall({ contractId: vault, functionName: 'set-owner', sender: attacker, args: [Cl.principal(attacker)] }),
    ]);
    const tx = (i: number) => block.txs[i]!.txId;

    const run = await suite.run(suite.args());
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

    const run = await suite.run(suite.args().filter((a) => a !== '--json'));

    expect(run.code, run.stderr).toBe(0);
    printed.record(path, run.stdout);
    expect(run.stdout).toContain(`withdraw on vault called (block ${block.height})`);
    expect(run.stdout).toMatch(/1\. u7/);
    expect(run.stdout).not.toMatch(/not listed by the API|not given by the API/);
  }, 30_000);
});

printed.samePrintedLines('the CLI alerting calls');
