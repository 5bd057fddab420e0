// No SMS floods, decided in the core: the first `smsPerRun` alerts of a run are texted, the rest held for
// one digest per run, a catch-up texts nothing, and the digest goes out exactly once across crashes.
import { describe, expect, it } from 'vitest';
import type { OutgoingAlert } from '../../lambda/core/deliver/outgoing-alert';
import type { SmsDigestAlert } from '../../lambda/core/alert-kinds/alert';
import type { CursorPosition, RecordName } from '../../lambda/core/ports';
import type { SmsTally } from '../../lambda/core/deliver/sms-tally';
import { MemoryChain, transfer } from '../support/memory-chain';
import { config, harness, OTHER, WATCHED } from './harness';
import { filterAttributes } from '../../lambda/core/alert-kinds/registry';

const SMS = { smsPerRun: 2 };
const routes = (sent: readonly OutgoingAlert[]) => sent.map((o) => `${o.alert.type}:${o.sms ?? 'none'}`);
const digests = (sent: readonly OutgoingAlert[]) => sent.filter((o) => o.alert.type === 'sms_digest').map((o) => o.alert as SmsDigestAlert);

function flood(alertsPerBlock: number[], startHeight = 101) {
  const chain = new MemoryChain();
  const h = harness(chain, config({ startHeight, addressesRule: { name: 'Treasury inflow', severity: 'critical' } }));
  for (const n of alertsPerBlock) chain.mine(Array.from({ length: n }, (_, i) => transfer(WATCHED, String(i + 1))));
  return h;
}

describe('the per-run SMS budget', () => {
  it('texts the first smsPerRun alerts of a run and sums up the rest in one digest text', async () => {
    const h = flood([3, 3]);
    await h.run(SMS);
    expect(routes(h.publisher.sent)).toEqual([
      'token_transfer:text',
      'token_transfer:text',
      'token_transfer:held',
      'token_transfer:held',
      'token_transfer:held',
      'token_transfer:held',
      'sms_digest:digest',
    ]);
    expect(digests(h.publisher.sent)).toEqual([
      expect.objectContaining({
        key: `sms_digest:${h.publisher.sent[2]!.alert.key}`,
        held: { critical: 4, warning: 0, info: 0 },
        from_height: 101,
        to_height: 102,
        severity: 'critical',
      }),
    ]);
    expect(h.publisher.sent[6]!.rendering.sms).toBe('stacks-watch: 4 more alerts, blocks 101-102: see email');
    expect(await h.state.readRecord('smsTally')).toBeNull();
  });

  it('gives every run its own budget, and sends no digest when nothing was held', async () => {
    const h = flood([3]);
    await h.run(SMS);
    h.chain.mine([transfer(WATCHED, '9')]);
    await h.run(SMS);
    expect(routes(h.publisher.sent).slice(4)).toEqual(['token_transfer:text']);
    expect(digests(h.publisher.sent)).toHaveLength(1);
  });

  it('sends a catch-up far behind the tip to the digest rather than a text per event', async () => {
    const chain = new MemoryChain();
    const h = harness(chain, config({ startHeight: 101 }));
    for (let i = 0; i < 70; i++) chain.mine(i % 10 === 0 ? [transfer(WATCHED, String(i + 1))] : undefined);
    await h.run(SMS);
    expect(routes(h.publisher.sent)).toEqual([...Array(7).fill('token_transfer:held'), 'sms_digest:digest']);
    expect(digests(h.publisher.sent)[0]).toMatchObject({ held: { warning: 7 }, from_height: 101, to_height: 161 });
  });

  it('routes nothing when the publisher reaches no phone (no smsPerRun in the run budget)', async () => {
    const h = flood([3]);
    await h.run();
    expect(routes(h.publisher.sent)).toEqual(Array(3).fill('token_transfer:none'));
  });
});

describe('the digest across crashes and retries', () => {
  it('keeps a digest that failed to go out in the state, and sends it once in the next run', async () => {
    const h = flood([4]);
    const firstHeld = () => h.publisher.sent[2]!.alert.key;
    const realPublish = h.publisher.publish.bind(h.publisher);
    let failDigest = true;
    h.publisher.publish = async (alerts, onAccepted) => {
      if (failDigest && alerts.some((a) => a.alert.type === 'sms_digest')) {
        failDigest = false;
        return { failed: alerts.map((a) => ({ key: a.alert.key, reason: 'throttled' })), undeliverable: [] };
      }
      return realPublish(alerts, onAccepted);
    };
    await expect(h.run(SMS)).rejects.toThrow(/could not be published/);
    expect(await h.state.readRecord('smsTally')).toMatchObject({ held: { firstKey: firstHeld(), counts: { critical: 2 } } });

    await h.run(SMS);
    await h.run(SMS);
    expect(digests(h.publisher.sent)).toEqual([expect.objectContaining({ held: { critical: 2, warning: 0, info: 0 } })]);
    expect(await h.state.readRecord('smsTally')).toBeNull();
  });

  it('does not repeat a digest when the run died after sending it, before clearing it', async () => {
    const h = flood([4]);
    const realWrite = h.state.writeRecord.bind(h.state);
    let crashOnClear = true;
    h.state.writeRecord = async (name: RecordName, tally: unknown) => {
      if (name !== 'smsTally') return realWrite(name, tally as never);
      if (crashOnClear && tally === null) {
        crashOnClear = false;
        throw new Error('killed after the digest went out');
      }
      return realWrite(name, tally as SmsTally | null);
    };
    await expect(h.run(SMS)).rejects.toThrow(/killed/);
    expect(digests(h.publisher.sent)).toHaveLength(1);

    h.advance(1_000);
    await h.run(SMS);
    expect(digests(h.publisher.sent)).toHaveLength(1);
    expect(await h.state.readRecord('smsTally')).toBeNull();
  });

  it("counts a block's held alerts once when the run died after publishing them, before the cursor moved", async () => {
    const h = flood([], 100);
    await h.run(SMS);
    h.chain.mine(Array.from({ length: 5 }, (_, i) => transfer(WATCHED, String(i + 1))));
    const realWrite = h.state.writeCursor.bind(h.state);
    let crashOnMove = true;
    h.state.writeCursor = async (next: CursorPosition, version: number | null, options?: { releaseLeaseOf?: string }) => {
      const current = await h.state.readCursor();
      if (crashOnMove && current && next.height > current.height) {
        crashOnMove = false;
        throw new Error('killed before moving the cursor');
      }
      return realWrite(next, version, options);
    };
    await expect(h.run(SMS)).rejects.toThrow(/killed/);
    expect(routes(h.publisher.sent)).toEqual([...Array(2).fill('token_transfer:text'), ...Array(3).fill('token_transfer:held')]);
    expect(await h.state.readRecord('smsTally')).toMatchObject({ held: { counts: { critical: 3 } } });

    h.advance(200_000); // the dead run's claims are stale
    const next = h.chain.mine([transfer(WATCHED, '77')]);
    await h.run(SMS);
    await h.run(SMS);
    expect(digests(h.publisher.sent)).toEqual([expect.objectContaining({ held: { critical: 3, warning: 0, info: 0 } })]);
    expect(h.publisher.keys().filter((k) => k.startsWith('token_transfer'))).toHaveLength(6);
    // The rescanned block's alerts, sent before the crash, do not use up the retry's texts.
    expect(h.publisher.sent.find((o) => o.alert.key === `token_transfer:${next.txs[0]!.txId}`)?.sms).toBe('text');
  });
});

describe('the digest severity', () => {
  it('gives the digest the most severe level it holds, whatever order the held alerts came in', async () => {
    const chain = new MemoryChain();
    const h = harness(
      chain,
      config({
        startHeight: 101,
        addressesRule: { name: 'Inflow', severity: 'info' },
        transfers: [{ asset: 'stx', to: [OTHER], from: [], actions: ['transfer'], name: 'Outflow watch', severity: 'critical' }],
      }),
    );
    chain.mine([transfer(WATCHED, '1'), transfer(WATCHED, '2')]); // texted
    chain.mine([transfer(WATCHED, '3'), transfer(OTHER, '4'), transfer(WATCHED, '5')]); // held: info, critical, info
    await h.run(SMS);
    const [digest] = digests(h.publisher.sent);
    expect(digest).toMatchObject({ held: { critical: 1, warning: 0, info: 2 }, severity: 'critical' });
    // A phone filtered on `critical` gets the digest: its severity attribute is what the filter policy reads.
    expect(filterAttributes(digest!).severity).toBe('critical');
  });
});
