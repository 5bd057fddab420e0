// A contract that prints a megabyte (a list of 8,000 principals), end to end: the real CLI against the fake
// Hiro API prints one bounded JSON line for it, with the start of the value, its length and its hash, and
// the terminal block stays a few lines.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { coinbase, contractCall, fakeContractId } from '../support/fake-hiro';
import { bigPrintValue } from '../support/big-print';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';

const airdrop = fakeContractId('airdrop');

describe('the CLI and a 1 MB printed value', () => {
  const print = bigPrintValue();
  const suite = cliSuite({
    name: 'big',
    config: { network: 'mainnet', contractLogs: [{ contractId: airdrop }], startHeight: 1 },
    setup: ({ chain }) => {
      chain.mine([coinbase()]);
      chain.mine([contractCall({ contractId: airdrop, functionName: 'drop', logs: [print.value] })]);
    },
    setupTimeoutMs: 20_000,
  });

  it('prints one JSON line with the value cut to its bounds, its length and its SHA-256', async () => {
    const run = await suite.run(suite.args('json-state.json'), { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const [alert, ...others] = jsonLines(run.stdout);
    const whole = Buffer.from(print.hex.slice(2), 'hex');

    expect(others).toEqual([]);
    expect(Buffer.byteLength(run.stdout)).toBeLessThan(128 * 1024);
    expect(alert).toMatchObject({
      type: 'contract_log',
      contract_id: airdrop,
      value_hex_bytes: whole.length,
      value_hex_sha256: createHash('sha256').update(whole).digest('hex'),
      value_truncated: true,
    });
    expect(print.hex.startsWith(alert!.value_hex as string)).toBe(true);
    expect(alert!.value_repr).toMatch(/^\(list SP.*…\[cut: 239,999 characters in all\]$/);
  }, 60_000);

  it('shows the value in a few lines at the terminal', async () => {
    const run = await suite.run(['--once', '--config', suite.configPath, '--state', suite.path('human-state.json')], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(airdrop);
    expect(run.stdout.split('\n').length).toBeLessThan(20);
  }, 60_000);
});
