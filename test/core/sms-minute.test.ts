// The loop mode's SMS budget (docs/latency.md): a turn every 8 s must not text seven times `smsPerRun` a
// minute. The budget is an SMS minute, 60 s of the clock shared by the turns that start in it: its first
// `smsPerRun` alerts are texted, the rest held, and one digest for them goes out with the first turn that
// starts or ends after it. The record is written only when a turn texts or holds.
import { describe, expect, it } from 'vitest';
import type { OutgoingAlert } from '../../lambda/core/deliver/outgoing-alert';
import type { SmsDigestAlert } from '../../lambda/core/alert-kinds/alert';
import type { CycleBudget } from '../../lambda/core/cycle-types';
import type { SmsTally } from '../../lambda/core/deliver/sms-tally';
import type { RecordName } from '../../lambda/core/ports';
import { LOOP_SMS_MINUTE_MS } from '../../lambda/core/deliver/sms-minute';
import { MemoryChain, transfer } from '../support/memory-chain';
import { config, harness, WATCHED } from './harness';

const SMS_PER_RUN = 2;
const TURN_EVERY_MS = 8_000;
/** Short enough that a turn 8 s after one that died takes over its lease and its claims. */
const DEAD_AFTER = { leaseTtlMs: 5_000, alertStaleAfterMs: 5_000 };
const routes = (sent: readonly OutgoingAlert[]) => sent.map((o) => `${o.alert.type}:${o.sms ?? 'none'}`);
const digests = (sent: readonly OutgoingAlert[]) => sent.filter((o) => o.alert.type === 'sms_digest').map((o) => o.alert as SmsDigestAlert);
const texted = (sent: readonly OutgoingAlert[]) => sent.filter((o) => o.sms === 'text').length;

let txs = 0;
/** A loop on a placed cursor, its SMS record's writes counted. */
async function loop() {
  const h = harness(new MemoryChain(), config({ startHeight: 100, addressesRule: { name: 'Treasury inflow', severity: 'critical' } }));
  await h.run(); // places the cursor
  const writes: (SmsTally | null)[] = [];
  const write = h.state.writeRecord.bind(h.state);
  h.state.writeRecord = async (name: RecordName, value: unknown) => {
    if (name === 'smsTally') writes.push(value as SmsTally | null);
    return write(name, value as never);
  };
  return {
    h,
    writes,
    mine: (alerts: number) => h.chain.mine(Array.from({ length: alerts }, () => transfer(WATCHED, String(++txs)))),
    /** One turn as the handler runs it: the budget started, one cycle, flushed (not after a cycle that throws). */
    async turn(budget: Partial<CycleBudget> = {}, advanceBeforeFlushMs = 0) {
      const invocation = h.smsInvocation(SMS_PER_RUN, LOOP_SMS_MINUTE_MS);
      await invocation.start();
      await invocation.run({ ...DEAD_AFTER, ...budget });
      h.advance(advanceBeforeFlushMs);
      await invocation.flush();
    },
  };
}

describe('the SMS budget of the loop mode, a minute shared by its turns', () => {
  it('texts smsPerRun alerts across the turns of a minute, holds the rest, and sends one digest after the minute', async () => {
    const { h, turn, mine } = await loop();
    for (let i = 0; i < 7; i++) {
      mine(1);
      await turn();
      h.advance(TURN_EVERY_MS); // seven turns in 56 s
    }
    expect(routes(h.publisher.sent)).toEqual([...Array(2).fill('token_transfer:text'), ...Array(5).fill('token_transfer:held')]);

    h.advance(LOOP_SMS_MINUTE_MS - 7 * TURN_EVERY_MS); // the first turn after the minute, a quiet one
    await turn();
    expect(digests(h.publisher.sent)).toEqual([expect.objectContaining({ held: { critical: 5, warning: 0, info: 0 }, from_height: 103, to_height: 107 })]);
    expect(await h.state.readRecord('smsTally')).toBeNull();

    // The next minute has its own budget.
    mine(3);
    await turn();
    expect(routes(h.publisher.sent).slice(8)).toEqual(['token_transfer:text', 'token_transfer:text', 'token_transfer:held']);
    h.advance(LOOP_SMS_MINUTE_MS);
    await turn();
    await turn();
    expect(digests(h.publisher.sent)).toHaveLength(2);
    expect(texted(h.publisher.sent)).toBe(4);
  });

  it('sends the digest from a turn that began in the minute and ends after it', async () => {
    const { h, turn, mine } = await loop();
    mine(3);
    await turn(); // opens the minute
    h.advance(58_000);
    mine(1);
    await turn({}, 3_000); // began at 58 s, ends at 61 s
    expect(routes(h.publisher.sent)).toEqual([...['text', 'text', 'held', 'held'].map((r) => `token_transfer:${r}`), 'sms_digest:digest']);
    expect(digests(h.publisher.sent)[0]).toMatchObject({ held: { critical: 2 } });
    h.advance(TURN_EVERY_MS);
    await turn();
    expect(digests(h.publisher.sent)).toHaveLength(1);
  });

  it('writes its record only when a turn texts or holds: a quiet turn reads it and writes nothing', async () => {
    const { h, turn, mine, writes } = await loop();
    await turn(); // nothing held, no SMS minute yet
    expect(writes).toEqual([]);
    mine(1);
    h.advance(TURN_EVERY_MS);
    await turn();
    expect(writes).toEqual([{ held: null, minute: { startedAt: expect.any(Number), texted: 1 } }]);
    for (let i = 0; i < 5; i++) {
      h.advance(TURN_EVERY_MS);
      await turn();
    }
    expect(writes).toHaveLength(1);
    mine(3); // one texted, two held: one write, before they go out
    await turn();
    expect(writes).toHaveLength(2);
    expect(writes[1]).toMatchObject({ held: { counts: { critical: 2 } }, minute: { texted: 2 } });
  });

  it.each([
    ['in the same minute', TURN_EVERY_MS],
    ['after the minute', LOOP_SMS_MINUTE_MS],
  ])('counts held alerts once when a turn died after keeping its tally, before publishing them (next turn %s)', async (_, laterMs) => {
    const { h, turn, mine } = await loop();
    mine(2);
    await turn(); // texted
    mine(3);
    h.publisher.throwNext = new Error('the turn dies');
    h.advance(TURN_EVERY_MS);
    await expect(turn()).rejects.toThrow(/dies/);
    expect(await h.state.readRecord('smsTally')).toMatchObject({ held: { counts: { critical: 3 } }, minute: { texted: 2 } });

    h.advance(laterMs); // the dead turn's lease and claims have lapsed: its block is rescanned
    await turn();
    h.advance(LOOP_SMS_MINUTE_MS);
    await turn();
    expect(digests(h.publisher.sent)).toEqual([expect.objectContaining({ held: { critical: 3, warning: 0, info: 0 } })]);
    const transfers = h.publisher.sent.filter((o) => o.alert.type === 'token_transfer');
    expect(transfers.map((o) => o.sms)).toEqual(['text', 'text', 'held', 'held', 'held']);
    expect(new Set(transfers.map((o) => o.alert.key)).size).toBe(5);
  });

  it('sends the digest of a record without an SMS minute (left by a run counted per invocation) at the next turn', async () => {
    const { h, turn, mine } = await loop();
    const held = { firstKey: 'token_transfer:0xold', counts: { critical: 0, warning: 4, info: 0 }, fromHeight: 90, toHeight: 99, throughHeight: 99 };
    await h.state.writeRecord('smsTally', { held });
    mine(2);
    await turn();
    expect(routes(h.publisher.sent)).toEqual(['sms_digest:digest', 'token_transfer:text', 'token_transfer:text']);
    expect(digests(h.publisher.sent)[0]).toMatchObject({ key: 'sms_digest:token_transfer:0xold', held: { warning: 4 } });
  });
});

describe('a loop turn reads the SMS record only when it has an alert to route', () => {
  /** The loop, with the reads of its SMS record counted and a turn as a queued one runs it: never started, flushed. */
  async function counted() {
    const l = await loop();
    const reads: RecordName[] = [];
    const read = l.h.state.readRecord.bind(l.h.state);
    l.h.state.readRecord = async (name: RecordName) => {
      reads.push(name);
      return read(name as never);
    };
    const tallyReads = () => reads.filter((name) => name === 'smsTally').length;
    /** A queued turn: its budget is not started; its first routed alert reads the record. */
    const queuedTurn = async (budget: Partial<CycleBudget> = {}) => {
      const invocation = l.h.smsInvocation(SMS_PER_RUN, LOOP_SMS_MINUTE_MS);
      await invocation.run({ ...DEAD_AFTER, ...budget });
      return invocation.flush();
    };
    return { ...l, tallyReads, queuedTurn };
  }

  it('a quiet turn reads no SMS record; a turn with alerts reads it once and routes by the minute as before', async () => {
    const { h, mine, tallyReads, queuedTurn } = await counted();
    await queuedTurn();
    h.advance(TURN_EVERY_MS);
    await queuedTurn();
    expect(tallyReads()).toBe(0);
    mine(3);
    h.advance(TURN_EVERY_MS);
    await queuedTurn();
    expect(tallyReads()).toBe(1);
    mine(2);
    h.advance(TURN_EVERY_MS);
    await queuedTurn();
    expect(tallyReads()).toBe(2);
    expect(routes(h.publisher.sent)).toEqual(['text', 'text', 'held', 'held', 'held'].map((r) => `token_transfer:${r}`));
  });

  it('tells whether an ended minute owes its digest without writing, and a run that starts the budget sends it once', async () => {
    const { h, mine, tallyReads, queuedTurn, turn, writes } = await counted();
    const owes = () => h.smsInvocation(SMS_PER_RUN, LOOP_SMS_MINUTE_MS).publisher.owesDigest();
    mine(4);
    await queuedTurn(); // two texted, two held
    expect(await owes()).toBe(false); // the minute is open
    for (let i = 0; i < 8; i++) {
      h.advance(TURN_EVERY_MS); // quiet turns, past the minute: none reads the record, none sends the digest
      await queuedTurn();
    }
    expect(tallyReads()).toBe(2);
    expect(digests(h.publisher.sent)).toEqual([]);
    const written = writes.length;
    expect(await owes()).toBe(true); // what the schedule's tick asks, and notes for the turns
    expect(writes).toHaveLength(written);
    await turn(); // the turn after the tick's note: starts and flushes the budget
    expect(digests(h.publisher.sent)).toEqual([expect.objectContaining({ held: { critical: 2, warning: 0, info: 0 } })]);
    h.advance(TURN_EVERY_MS);
    await turn();
    mine(1);
    await queuedTurn();
    expect(digests(h.publisher.sent)).toHaveLength(1);
    expect(await owes()).toBe(false);
  });

  it("sends an ended minute's digest from the next turn with an alert, before that turn's texts, and returns it from the flush", async () => {
    const { h, mine, queuedTurn } = await counted();
    mine(3);
    await queuedTurn();
    h.advance(LOOP_SMS_MINUTE_MS + TURN_EVERY_MS);
    mine(1);
    const sent = await queuedTurn();
    expect(routes(h.publisher.sent)).toEqual([...['text', 'text', 'held'].map((r) => `token_transfer:${r}`), 'sms_digest:digest', 'token_transfer:text']);
    expect(sent.map((a) => a.type)).toEqual(['sms_digest']);
  });

  it('texts nothing from a turn far behind the tip, also when its budget starts at its first routed alert', async () => {
    const { h, queuedTurn } = await counted();
    for (let i = 0; i < 70; i++) h.chain.mine(i % 10 === 0 ? [transfer(WATCHED, `behind-${i}`)] : undefined);
    await queuedTurn();
    expect(h.publisher.sent.filter((o) => o.sms === 'text')).toEqual([]);
  });
});
