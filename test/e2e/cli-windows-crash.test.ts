// A window's counts and a crash: the CLI killed (SIGKILL) mid-run, after its checkpoint at block 50 and
// before its last cursor write, then run again: the rescan starts from the counts written with that
// checkpoint, so the window crosses once, in the same block, with the same key, as a run never killed.
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { coinbase, contractCall, fakeAddress, fakeContractId, type FakeBlock } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { bundleCli, KillableCli, printedKeys, type KillTrigger } from '../reliability/killable-cli';

const alice = fakeAddress('alice');
const vault = fakeContractId('vault');
const failedWithdraw = () =>
  contractCall({ contractId: vault, functionName: 'withdraw', sender: alice, status: 'abort_by_response', args: [Cl.uint(1)], result: Cl.error(Cl.uint(102)) });

/** Failed withdrawals at these heights, 8 s apart: the fifth, at 58, makes 5 in 10 minutes. */
const FAILURES = [45, 48, 52, 55, 58];
const HEIGHT = 70;

const KILLS: { name: string; line: KillTrigger['line'] }[] = [
  { name: 'after block 53 (two failures in the checkpoint, one since)', line: { stream: 'stderr', match: /block scanned/, nth: 53 } },
  { name: 'after block 56', line: { stream: 'stderr', match: /block scanned/, nth: 56 } },
  { name: 'after printing the crossing', line: { stream: 'stdout', match: /window_threshold/, nth: 1 } },
];

describe('a window after a crash', () => {
  const blocks = new Map<number, FakeBlock>();
  let cliPath: string;
  const suite = cliSuite({
    name: 'windows-crash',
    config: {
      network: 'mainnet',
      calls: [{ name: 'vault withdraw failed', contractId: vault, functions: ['withdraw'], status: 'failed' }],
      windows: [{ name: 'withdraw failures', of: 'vault withdraw failed', minutes: 10, count: 5 }],
      startHeight: 1,
    },
    setup: async ({ chain, dir }) => {
      for (let height = 1; height <= HEIGHT; height += 1) blocks.set(height, chain.mine(FAILURES.includes(height) ? [failedWithdraw()] : [coinbase()]));
      cliPath = await bundleCli(dir);
    },
    setupTimeoutMs: 60_000,
  });

  const windowKeys = (keys: readonly string[]) => keys.filter((key) => key.startsWith('window_threshold:'));
  const crossing = () => `window_threshold:withdraw failures:contract_call:${blocks.get(58)!.txs[0]!.txId}`;

  for (const [index, kill] of KILLS.entries()) {
    it(`gives the alerts of a run never killed when killed ${kill.name}`, async () => {
      const args = suite.args(`state-${index}.json`);
      const env = { ...suite.env, LOG_LEVEL: 'debug' };
      const cli = new KillableCli(cliPath);
      const killed = await cli.run(args, env, { line: kill.line });
      expect(killed.killed, killed.stderr).toBe(true);
      const rerun = await cli.runToEnd(args, env);
      expect(rerun.code, rerun.stderr).toBe(0);
      const printed = [...printedKeys(killed.stdout), ...printedKeys(rerun.stdout)];
      // Once, unless the kill came between printing it and marking it sent (then the rerun prints it again).
      const windows = windowKeys(printed);
      expect(new Set(windows)).toEqual(new Set([crossing()]));
      expect(windows.length).toBeLessThanOrEqual(windowKeys(printedKeys(killed.stdout)).length + 1);
      expect(new Set(printed.filter((key) => key.startsWith('contract_call:')))).toEqual(
        new Set(FAILURES.map((height) => `contract_call:${blocks.get(height)!.txs[0]!.txId}`)),
      );
    }, 60_000);
  }
});
