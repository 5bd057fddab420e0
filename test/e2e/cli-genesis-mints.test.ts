// The genesis STX mints, end to end through the CLI: the API lists them in block 1 as the `stx_asset` mint events
// of one token_transfer transaction, so a tracked recipient's genesis STX alert as mints whichever way the
// watcher reads the chain (the v2 routes, or the v3 routes once the deprecated ones answer 410).
import { describe, expect, it } from 'vitest';
import { fakeAddress, stxAssetEvent, type FakeTxSpec } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';
import { API_PATHS, useApiPath } from './api-paths';

const holders = Array.from({ length: 32 }, (_, i) => fakeAddress(`genesis-holder-${i}`));
const [first, , , seventh] = [holders[0]!, holders[1], holders[2], holders[7]!];

/** Block 1's one transaction as the API lists it: a token_transfer carrying every genesis mint as an event. */
function genesisMints(): FakeTxSpec {
  const boot = fakeAddress('boot');
  return {
    txType: 'token_transfer',
    sender: boot,
    feeRate: '0',
    payload: { token_transfer: { recipient_address: boot, amount: '0', memo: `0x${'00'.repeat(34)}` } },
    events: holders.map((to, i) => stxAssetEvent({ action: 'mint', to }, 1_000_000 * (i + 1))),
  };
}

describe.each(API_PATHS)('the genesis STX mints, on $name', (path) => {
  const suite = cliSuite({
    name: 'genesis-mints',
    config: { network: 'mainnet', addresses: [first], transfers: [{ asset: 'stx', to: [seventh] }], startHeight: 1 },
    setupTimeoutMs: 20_000,
  });
  const { fake, chain } = suite;
  useApiPath(fake, path);

  it('alerts each tracked recipient of a genesis mint once, as minted', async () => {
    const genesis = chain.mine([genesisMints()]);
    const txId = genesis.txs[0]!.txId;

    const run = await suite.run(suite.args());

    expect(genesis.height).toBe(1);
    expect(run.code, run.stderr).toBe(0);
    const alerts = jsonLines(run.stdout);
    expect(alerts.map((a) => a.key)).toEqual([`stx_transfer:${txId}:0`, `stx_transfer:${txId}:7`]);
    expect(alerts[0]).toMatchObject({ recipient: first, sender: null, action: 'mint', direction: 'minted', amount: '1000000', block_height: 1 });
    expect(alerts[1]).toMatchObject({ recipient: seventh, action: 'mint', direction: 'minted', amount: '8000000', rule: `transfers:stx to ${seventh}` });
  }, 30_000);
});
