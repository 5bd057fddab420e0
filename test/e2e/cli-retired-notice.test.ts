// A local runner that meets a retired route (410) tells the operator once a UTC day and then says no more about
// it in its later cycles, as a warm Lambda container does: the day's notice seen sent is kept across its cycles
// (core/runner-memory.ts). Its one Hiro client lists a retired route in every cycle's take, so without that memory
// every cycle logged the warning again and read the notice's record.
import { describe, expect, it } from 'vitest';
import { coinbase, fakeAddress, ROUTES } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';

const CYCLES = 4;

describe('npm start meeting a retired route', () => {
  const suite = cliSuite({
    name: 'retired-notice',
    config: { network: 'mainnet', addresses: [fakeAddress('alice')], startHeight: 1 },
    setup: ({ chain, fake }) => {
      chain.mine([coinbase()]);
      fake.retire(ROUTES.blockTransactions);
    },
  });

  it('warns of it in its first cycle only, cycle after cycle of a running watcher', async () => {
    let seen = '';
    const run = await suite.run(['--interval', '1', '--json', '--config', suite.configPath, '--state', suite.path('state.json')], {
      // The block scan reads the retired block list; each cycle's end is logged at debug.
      env: { FETCH_WAY: 'block-scan', LOG_LEVEL: 'debug' },
      timeoutMs: 30_000,
      onStderr: (chunk, child) => {
        seen += chunk;
        if (seen.split('cycle done').length > CYCLES) child.kill('SIGTERM');
        // A new block now and then, so that every cycle reads the chain.
        if (chunk.includes('cycle done')) suite.chain.mine([coinbase()]);
      },
    });

    expect(run.stderr.split('cycle done').length, run.stderr).toBeGreaterThan(CYCLES);
    const warnings = run.stderr.split('\n').filter((line) => line.includes('the API retired a route stacks-watch reads'));
    expect(warnings, run.stderr).toHaveLength(1);
  }, 40_000);
});
