// The settled follow-up through the real scanner, on generated chains: a deposit minted (its completed-deposit
// print and the sBTC mint beside it) is told as it lands and told settled once the print is 6 Bitcoin blocks deep,
// each once across a crash; a reorg that takes the print back before then retracts the completion and restarts the
// clock from the print on the new chain; a reorg after it settled that keeps the print tells nothing twice.
import { bufferCV, principalCV, serializeCV, stringAsciiCV, tupleCV, uintCV } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { parseWatchConfig, type WatchConfig } from '../../../lambda/config/watch-config';
import { SBTC_MAINNET_DEPLOYER } from '../../../lambda/core/sbtc/lifecycle-section';
import type { StateStore } from '../../../lambda/core/ports';
import { config, harness } from '../harness';
import { coinbase, contractCall, MemoryChain, type ModelTx } from '../../support/memory-chain';

const REGISTRY = `${SBTC_MAINNET_DEPLOYER}.sbtc-registry`;
const TOKEN = `${SBTC_MAINNET_DEPLOYER}.sbtc-token::sbtc-token`;
const WALLET = 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE';
const OTHER = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
/** The Bitcoin height of Stacks block 100; each Stacks block here is one Bitcoin block on. */
const BTC = 871_000;

const hex32 = (seed: number) => seed.toString(16).padStart(64, '0');
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));

const completedPrint = (seed: number, sats: number) =>
  serializeCV(
    tupleCV({
      topic: stringAsciiCV('completed-deposit'),
      'bitcoin-txid': bufferCV(bytes(hex32(seed))),
      'output-index': uintCV(0),
      amount: uintCV(sats),
      'burn-hash': bufferCV(bytes(hex32(999))),
      'burn-height': uintCV(BTC),
      'sweep-txid': bufferCV(bytes(hex32(seed + 500))),
    }),
  );

/** The signers' call that mints deposits: for each, the mint to its recipient, then the registry's completed-deposit print. */
function mintsTx(deposits: { seed: number; recipient: string; sats?: number }[]): ModelTx {
  const events = deposits.map(({ seed, recipient, sats = 50_000_000 }, i) => ({
    mint: { eventIndex: 2 * i, asset: 'ft' as const, action: 'mint' as const, assetId: TOKEN, amount: String(sats), sender: null, recipient },
    print: { eventIndex: 2 * i + 1, contractId: REGISTRY, topic: 'print', valueHex: completedPrint(seed, sats), valueRepr: '' },
  }));
  return contractCall(`${SBTC_MAINNET_DEPLOYER}.sbtc-deposit`, [], {
    eventCount: 2 * deposits.length,
    logs: events.map((e) => e.print),
    assets: events.map((e) => e.mint),
  });
}

const mintTx = (seed: number, recipient = WALLET, sats = 50_000_000): ModelTx => mintsTx([{ seed, recipient, sats }]);

/** A withdrawal request by `sender` (its withdrawal-create print), made at Bitcoin height `bitcoinHeight`. */
function requestTx(requestId: number, bitcoinHeight: number, sender = WALLET): ModelTx {
  const print = serializeCV(
    tupleCV({
      topic: stringAsciiCV('withdrawal-create'),
      amount: uintCV(25_000_000),
      'request-id': uintCV(requestId),
      sender: principalCV(sender),
      recipient: tupleCV({ version: bufferCV(new Uint8Array([4])), hashbytes: bufferCV(new Uint8Array(20).fill(0xee)) }),
      'block-height': uintCV(bitcoinHeight),
      'max-fee': uintCV(4_000),
    }),
  );
  return contractCall(`${SBTC_MAINNET_DEPLOYER}.sbtc-withdrawal`, [], {
    eventCount: 1,
    logs: [{ eventIndex: 0, contractId: REGISTRY, topic: 'print', valueHex: print, valueRepr: '' }],
  });
}

/** The signers' acceptance of a withdrawal request (its withdrawal-accept print). */
function acceptTx(requestId: number): ModelTx {
  const print = serializeCV(
    tupleCV({
      topic: stringAsciiCV('withdrawal-accept'),
      'request-id': uintCV(requestId),
      'bitcoin-txid': bufferCV(bytes(hex32(requestId + 700))),
      'output-index': uintCV(1),
      fee: uintCV(3_000),
      'burn-hash': bufferCV(bytes(hex32(999))),
      'burn-height': uintCV(BTC),
      'sweep-txid': bufferCV(bytes(hex32(requestId + 700))),
    }),
  );
  return contractCall(`${SBTC_MAINNET_DEPLOYER}.sbtc-withdrawal`, [], {
    eventCount: 1,
    logs: [{ eventIndex: 0, contractId: REGISTRY, topic: 'print', valueHex: print, valueRepr: '' }],
  });
}

/** A config that has the sbtcLifecycle section and nothing else to watch: the section alone makes the scan read the registry. */
const sectionAlone = (section: Record<string, unknown>): WatchConfig => config({ addresses: [], contractLogs: [], sbtcLifecycle: section } as never);

function mine(chain: MemoryChain, txs: ModelTx[] = [coinbase()]): void {
  const block = chain.mine(txs);
  block.burnHeight = BTC + block.height - 100;
}

function setUp(section: Record<string, unknown> = { settled: {} }) {
  const chain = new MemoryChain(100);
  chain.tip.burnHeight = BTC;
  const h = harness(chain, sectionAlone(section));
  const sbtc = () => h.publisher.sent.map((s) => s.alert).filter((a) => a.type === 'sbtc_settlement' || a.type === 'retraction');
  const brief = () => sbtc().map((a) => (a.type === 'retraction' ? `retracted ${a.retracts}` : `${a.block_height} ${a.key}`));
  return { chain, h, brief };
}

const completed = (seed: number) => `sbtc_settlement:completed:deposit:${hex32(seed)}:0`;
const settled = (seed: number) => `sbtc_settlement:settled:deposit:${hex32(seed)}:0`;

function failOnce(state: StateStore, method: keyof StateStore, error: Error): () => void {
  const original = (state[method] as (...args: unknown[]) => unknown).bind(state);
  (state as unknown as Record<string, unknown>)[method] = async () => {
    throw error;
  };
  return () => void ((state as unknown as Record<string, unknown>)[method] = original);
}

describe('the settled follow-up through the scanner', () => {
  it('tells a deposit minted at its print and settled once the print is 6 Bitcoin blocks deep, from the section alone', async () => {
    const { chain, h, brief } = setUp();
    await h.run();
    mine(chain, [mintTx(1)]);
    for (let i = 0; i < 10; i++) mine(chain);
    await h.run();
    expect(brief()).toEqual([`101 ${completed(1)}`, `107 ${settled(1)}`]);
    const [minted, deep] = h.publisher.sent.map((s) => s.alert).filter((a) => a.type === 'sbtc_settlement');
    expect(minted).toMatchObject({ step: 'completed', recipient: WALLET, amount_sats: '50000000', completed_at_bitcoin: BTC + 1, settle_blocks: 6 });
    expect(deep).toMatchObject({ step: 'settled', bitcoin_height: BTC + 7, tx_id: minted!.tx_id });
  });

  it('waits the blocks the section asks for', async () => {
    const { chain, h, brief } = setUp({ settled: { blocks: 2 } });
    await h.run();
    mine(chain, [mintTx(1)]);
    for (let i = 0; i < 4; i++) mine(chain);
    await h.run();
    expect(brief()).toEqual([`101 ${completed(1)}`, `103 ${settled(1)}`]);
  });

  it('tells nothing of completions without the settled option', async () => {
    const { chain, h, brief } = setUp({});
    await h.run();
    mine(chain, [mintTx(1)]);
    for (let i = 0; i < 10; i++) mine(chain);
    await h.run();
    expect(brief()).toEqual([]);
  });

  it('tells only the deposits of the recipients named', async () => {
    const { chain, h, brief } = setUp({ settled: {}, recipients: [WALLET] });
    await h.run();
    mine(chain, [mintTx(1, OTHER), mintTx(2, WALLET)]);
    for (let i = 0; i < 6; i++) mine(chain);
    await h.run();
    expect(brief()).toEqual([`101 ${completed(2)}`, `107 ${settled(2)}`]);
  });

  it('pairs each print of a batch with the mint before it: same amounts to two recipients, only the named one told', async () => {
    const { chain, h, brief } = setUp({ settled: {}, recipients: [WALLET] });
    await h.run();
    mine(chain, [
      mintsTx([
        { seed: 1, recipient: OTHER },
        { seed: 2, recipient: WALLET },
        { seed: 3, recipient: OTHER },
      ]),
    ]);
    for (let i = 0; i < 6; i++) mine(chain);
    await h.run();
    expect(brief()).toEqual([`101 ${completed(2)}`, `107 ${settled(2)}`]);
  });

  it('tells a withdrawal accepted and settled, only for the senders named', async () => {
    const { chain, h, brief } = setUp({ settled: {}, senders: [WALLET] });
    await h.run();
    mine(chain, [requestTx(7, BTC + 1), requestTx(8, BTC + 1, OTHER)]);
    mine(chain);
    mine(chain, [acceptTx(7), acceptTx(8)]);
    for (let i = 0; i < 6; i++) mine(chain);
    await h.run();
    expect(brief()).toEqual(['103 sbtc_settlement:completed:withdrawal:7', '109 sbtc_settlement:settled:withdrawal:7']);
    expect(h.publisher.sent.at(-1)!.alert).toMatchObject({ flow: 'withdrawal', request_id: 7, sender: WALLET, amount_sats: '25000000' });
  });

  it('tells deadlines only for the senders named: a late withdrawal of another sender is not followed', async () => {
    const { chain, h } = setUp({ senders: [WALLET] });
    await h.run();
    mine(chain, [requestTx(7, BTC + 1), requestTx(8, BTC + 1, OTHER)]);
    for (let i = 0; i < 13; i++) mine(chain);
    await h.run();
    expect(h.publisher.sent.map((s) => s.alert.key).filter((k) => k.startsWith('sbtc:'))).toEqual(['sbtc:withdrawal_late:warning:7']);
  });

  it('sends each once when a run dies after delivering and before its cursor write', async () => {
    const { chain, h, brief } = setUp();
    await h.run();
    mine(chain, [mintTx(1)]);
    for (let i = 0; i < 8; i++) mine(chain);
    const restore = failOnce(h.state, 'writeCursor', new Error('the process died'));
    await expect(h.run()).rejects.toThrow('the process died');
    expect(brief()).toEqual([`101 ${completed(1)}`, `107 ${settled(1)}`]);
    restore();
    h.advance(200_000); // past the dead run's lease
    expect((await h.run()).cursor?.height).toBe(109);
    expect(brief()).toEqual([`101 ${completed(1)}`, `107 ${settled(1)}`]);
  });
});

describe('the settled follow-up from the sbtc-bridge pack', () => {
  it('tells the wallet its mint, its completion and its settling, from one pack entry', async () => {
    const parsed = parseWatchConfig({ network: 'mainnet', startHeight: 'latest', packs: [{ name: 'sbtc-bridge', recipients: [WALLET], settled: {} }] });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const chain = new MemoryChain(100);
    chain.tip.burnHeight = BTC;
    const h = harness(chain, parsed.config);
    await h.run();
    mine(chain, [mintTx(1, OTHER), mintTx(2)]);
    for (let i = 0; i < 6; i++) mine(chain);
    await h.run();
    const sent = h.publisher.sent.map((s) => s.alert);
    expect(sent.map((a) => `${a.type} ${'block_height' in a ? a.block_height : ''}`)).toEqual([
      'ft_transfer 101',
      'sbtc_settlement 101',
      'sbtc_settlement 107',
    ]);
    expect(sent[0]).toMatchObject({ rule: 'sbtc-bridge: sBTC minted to a watched address', recipient: WALLET });
  });
});

describe('the settled follow-up across reorgs', () => {
  it('retracts the completion when a reorg takes the print back before it settled, and tells no settled', async () => {
    const { chain, h, brief } = setUp();
    await h.run();
    mine(chain, [mintTx(1)]);
    mine(chain);
    mine(chain);
    await h.run();
    expect(brief()).toEqual([`101 ${completed(1)}`]);
    // Blocks 101-103 replaced by blocks without the print; the new chain runs on past the retraction grace.
    chain.reorg(3, [[coinbase()], [coinbase()], [coinbase()]]);
    for (const b of chain.blocks) if (b.height > 100) b.burnHeight = BTC + b.height - 100;
    for (let i = 0; i < 12; i++) mine(chain);
    await h.run();
    expect(brief()).toEqual([`101 ${completed(1)}`, `retracted ${completed(1)}`]);
  });

  it('restarts the clock from the print on the new chain: the completion is confirmed, not doubled, and settles 6 blocks after its new block', async () => {
    const { chain, h, brief } = setUp();
    await h.run();
    const tx = mintTx(1);
    mine(chain, [tx]);
    for (let i = 0; i < 4; i++) mine(chain);
    await h.run();
    expect(brief()).toEqual([`101 ${completed(1)}`]);
    // The same transaction mined again 3 blocks later on the new chain (Bitcoin block BTC + 104).
    chain.reorg(5, [[coinbase()], [coinbase()], [coinbase()], [tx]]);
    for (const b of chain.blocks) if (b.height > 100) b.burnHeight = BTC + b.height - 100;
    for (let i = 0; i < 20; i++) mine(chain);
    await h.run();
    expect(brief()).toEqual([`101 ${completed(1)}`, `110 ${settled(1)}`]);
  });

  it('tells nothing twice and retracts nothing when a reorg after it settled keeps the print', async () => {
    const { chain, h, brief } = setUp();
    await h.run();
    mine(chain, [mintTx(1)]);
    for (let i = 0; i < 9; i++) mine(chain);
    await h.run();
    expect(brief()).toEqual([`101 ${completed(1)}`, `107 ${settled(1)}`]);
    // Blocks 106-110 replaced (the settled alert's block among them); the print's block 101 stays.
    chain.reorg(5, [[coinbase()], [coinbase()], [coinbase()], [coinbase()], [coinbase()]]);
    for (const b of chain.blocks) if (b.height > 100) b.burnHeight = BTC + b.height - 100;
    for (let i = 0; i < 15; i++) mine(chain);
    await h.run();
    expect(brief()).toEqual([`101 ${completed(1)}`, `107 ${settled(1)}`]);
  });

  it('retracts both when a deep reorg takes the print back after it settled', async () => {
    const { chain, h, brief } = setUp();
    await h.run();
    mine(chain, [mintTx(1)]);
    for (let i = 0; i < 7; i++) mine(chain);
    await h.run();
    expect(brief()).toEqual([`101 ${completed(1)}`, `107 ${settled(1)}`]);
    chain.reorg(
      8,
      Array.from({ length: 8 }, () => [coinbase()]),
    );
    for (const b of chain.blocks) if (b.height > 100) b.burnHeight = BTC + b.height - 100;
    for (let i = 0; i < 12; i++) mine(chain);
    await h.run();
    expect(brief().slice(2).sort()).toEqual([`retracted ${completed(1)}`, `retracted ${settled(1)}`]);
  });
});
