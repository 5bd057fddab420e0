// The sbtcLifecycle section alone, read per subject against the fake Hiro API: its registry is a subject of the
// plan, so the feed of the registry's logs finds the completed-deposit print and the mint beside it, and the
// stage reads them as the block scan would.
import { bufferCV, stringAsciiCV, tupleCV, uintCV } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../../lambda/config/watch-config';
import { subjectsOf } from '../../../lambda/core/follow/fetch-plan';
import { SubjectSource } from '../../../lambda/core/follow/subject-source';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import { SBTC_MAINNET_DEPLOYER } from '../../../lambda/core/sbtc/lifecycle-section';
import { registryObservations } from '../../../lambda/core/stages/sbtc-lifecycle';
import { contractCall, fakeAddress, ftAssetEvent, print, transfer } from '../../support/fake-hiro';
import { startHarness } from '../../hiro/harness';
import { RecordingTelemetry } from '../harness';
import { buildSbtcSettlement } from '../../../lambda/core/alert-kinds/sbtc-settlement';
import { renderEmail } from '../../../lambda/core/render';
import { createSbtcTracker } from '../../../lambda/core/sbtc/tracker';
import { prints } from '../sbtc/sbtc-history';

const REGISTRY = `${SBTC_MAINNET_DEPLOYER}.sbtc-registry`;
const TOKEN = `${SBTC_MAINNET_DEPLOYER}.sbtc-token::sbtc-token`;
const WALLET = 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE';
const bytes = (seed: number) => Uint8Array.from(Buffer.from(seed.toString(16).padStart(64, '0'), 'hex'));

const completedDeposit = tupleCV({
  topic: stringAsciiCV('completed-deposit'),
  'bitcoin-txid': bufferCV(bytes(1)),
  'output-index': uintCV(0),
  amount: uintCV(50_000_000),
  'burn-hash': bufferCV(bytes(999)),
  'burn-height': uintCV(871_000),
  'sweep-txid': bufferCV(bytes(501)),
});

async function readPerSubject(section: Record<string, unknown>) {
  const parsed = parseWatchConfig({ network: 'mainnet', sbtcLifecycle: section });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const rules = compileWatchRules(parsed.config);
  const { unbound: _unbound, ...subjects } = subjectsOf(rules);
  const h = await startHarness();
  h.fake.chain.mine([transfer({ from: fakeAddress('bob'), to: fakeAddress('carol'), amount: 1 })]);
  h.fake.chain.mine([
    contractCall({
      contractId: `${SBTC_MAINNET_DEPLOYER}.sbtc-deposit`,
      // As on chain: the deposit contract mints, then the registry prints.
      events: [ftAssetEvent(TOKEN, { action: 'mint', to: WALLET }, 50_000_000), print(REGISTRY, completedDeposit)],
    }),
  ]);
  const client = h.client();
  const read = await new SubjectSource(client.subjects, client, { rules }, subjects).read(1, 2);
  expect(read.error).toBeNull();
  const observed = read.blocks.flatMap(({ block, events }) => registryObservations(block, events, new Set([REGISTRY]), new RecordingTelemetry()));
  return { subjects, observed };
}

describe('the sbtcLifecycle section alone, read per subject', () => {
  it('follows the registry as a subject: the stage gets its completed-deposit print', async () => {
    const { subjects, observed } = await readPerSubject({ settled: {} });
    expect(subjects).toEqual({ contracts: [REGISTRY], principals: [] });
    expect(observed).toHaveLength(1);
    expect(observed[0]).toMatchObject({ source: 'chain', stacksHeight: 2, print: { topic: 'completed-deposit', amountSats: 50_000_000n } });
  });

  it("follows the recipients named too, whose feeds carry the mint that names a deposit's recipient", async () => {
    const { subjects, observed } = await readPerSubject({ settled: {}, recipients: [WALLET] });
    expect(subjects).toEqual({ contracts: [REGISTRY], principals: [WALLET] });
    expect(observed).toHaveLength(1);
    expect(observed[0]).toMatchObject({ stacksHeight: 2, mintedTo: WALLET, print: { topic: 'completed-deposit' } });
  });
});

describe('a deposit followed from its print without the mint beside it', () => {
  it('is followed to settled for a watch of every deposit, its recipient shown as not read', () => {
    const tracker = createSbtcTracker({ settledBlocks: 6 });
    const print = { ...prints.minted(1, 9_000) };
    const { settlements } = tracker.apply(tracker.initial(), [print], 100, 9_000);
    expect(settlements.map((e) => `${e.step} ${e.recipient}`)).toEqual(['completed ']);
    const email = renderEmail(buildSbtcSettlement(settlements[0]!, { network: 'mainnet', height: 9_000, hash: '0x01' }));
    expect(email).toMatch(/Recipient: +not read \(see the Stacks tx\)/);
  });

  it('is not followed by a watch scoped to recipients: it cannot tell whose it is', () => {
    const tracker = createSbtcTracker({ settledBlocks: 6, recipients: [WALLET] });
    expect(tracker.apply(tracker.initial(), [prints.minted(1, 9_000)], 100, 9_000).settlements).toEqual([]);
  });
});
