// The real CLI's `--check` on a watch config past a ceiling: exit 2 naming it, no crash, nothing read.
import { describe, expect, it } from 'vitest';
import { fakeContractId } from '../support/fake-hiro';
import { cliTempDir } from '../support/cli-suite';
import { runCli } from './run-cli';

const temp = cliTempDir('ceilings');

describe('--check on a config past a ceiling', () => {
  it('exits 2 naming where a 20 KB config nests thousands deep, instead of overflowing the stack', async () => {
    const where = `${'{"not":'.repeat(2_500)}{"a":1}${'}'.repeat(2_500)}`;
    const { configPath } = await temp.files('deep', `{"network":"mainnet","contractLogs":[{"contractId":"${fakeContractId('vault')}","where":${where}}]}`);
    const run = await runCli(['--check', '--config', configPath], {});
    expect(run.stderr).toMatch(/\$\.contractLogs\[0\]\.where: nests arrays and objects more than 64 deep/);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });
});
