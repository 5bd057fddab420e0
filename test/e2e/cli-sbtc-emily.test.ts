// Emily polled by `npm start`: the real CLI against the fake Hiro API and the fake Emily (EMILY_API_URL). A
// deposit Emily lists that is never minted is printed at the Bitcoin block its deadline falls on, once.
import { afterAll, describe, expect, it } from 'vitest';
import { SBTC_MAINNET_DEPLOYER } from '../../lambda/core/packs/sbtc-bridge';
import { cliSuite } from '../support/cli-suite';
import { createFakeEmily, depositJson, type RunningFakeEmily } from '../support/fake-emily';
import { jsonLines } from './run-cli';

const emily = createFakeEmily();
let emilyServer: RunningFakeEmily | undefined;
afterAll(async () => emilyServer?.close());

describe('Emily polled by the local runner', () => {
  const suite = cliSuite({
    name: 'sbtc-emily',
    config: {
      network: 'mainnet',
      contractLogs: [{ contractId: `${SBTC_MAINNET_DEPLOYER}.sbtc-registry`, where: { topic: 'withdrawal-reject' } }],
      sbtcLifecycle: {},
      startHeight: 1,
    },
    setup: async (s) => {
      emilyServer = await emily.start();
      s.chain.mine([]);
    },
  });

  it('asks Emily each Bitcoin block and prints a deposit never minted at its deadline, once', async () => {
    const stuck = depositJson({ seed: 'stuck' });
    emily.putDeposit(stuck);
    const run = async () => {
      const out = await suite.run(suite.args(), { env: { EMILY_API_URL: emilyServer!.url }, timeoutMs: 30_000 });
      expect(out.code).toBe(0);
      return jsonLines(out.stdout).map((a) => (a as { key: string }).key);
    };
    const printed = [...(await run())];
    expect(emily.count()).toBe(4);
    for (let block = 1; block <= 5; block++) {
      suite.chain.advanceBitcoin(1);
      suite.chain.newTenure();
      suite.chain.mine([]);
      printed.push(...(await run()));
    }
    expect(printed).toEqual([`sbtc:deposit_late:warning:${stuck.bitcoinTxid}:0`]);
  }, 120_000);
});
