import { describe, expect, it } from 'vitest';
import { AlertInFlightError, deliverAlerts } from '../../lambda/core/deliver/delivery';
import type { TokenTransferAlert } from '../../lambda/core/alert-kinds/alert';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { RecordingPublisher } from '../support/recording-publisher';
import { RecordingOperator, RecordingTelemetry } from './harness';

const alert = (key: string): TokenTransferAlert => ({
  type: 'token_transfer',
  key,
  network: 'mainnet',
  tx_id: '0x01',
  block_height: 1,
  block_hash: '0x02',
  block_time: 1,
  sender: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7',
  recipient: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR',
  amount: '1',
  memo: '0x',
  memo_text: null,
});

function ports(now = 1_000_000, callSize = 10) {
  const clock = { now: () => now };
  return {
    state: new DocumentStateStore(emptyDocument('mainnet')),
    publisher: new RecordingPublisher(callSize),
    clock,
    telemetry: new RecordingTelemetry(),
    operator: new RecordingOperator(),
    set: (t: number) => {
      now = t;
    },
  };
}

describe('delivery protocol', () => {
  it('publishes a new alert and records it as sent with its content', async () => {
    const p = ports();
    const report = await deliverAlerts([alert('a')], p, 60_000);
    expect(report.published.map((a) => a.key)).toEqual(['a']);
    expect(await p.state.getAlertRecord('a')).toMatchObject({ state: 'sent', alert: { key: 'a' } });
  });

  it('skips an alert already sent', async () => {
    const p = ports();
    await deliverAlerts([alert('a')], p, 60_000);
    const report = await deliverAlerts([alert('a')], p, 60_000);
    expect(report.alreadySent.map((a) => a.key)).toEqual(['a']);
    expect(p.publisher.sent).toHaveLength(1);
  });

  it('stops before an alert another run claimed moments ago', async () => {
    const p = ports();
    await p.state.claimAlert('a', 1_000_000, 60_000);
    await expect(deliverAlerts([alert('a')], p, 60_000)).rejects.toBeInstanceOf(AlertInFlightError);
    expect(p.publisher.sent).toHaveLength(0);
  });

  it('publishes again a claim older than the staleness limit (its run died mid-publish)', async () => {
    const p = ports();
    await p.state.claimAlert('a', 1_000_000, 60_000);
    p.set(1_000_000 + 60_001);
    const report = await deliverAlerts([alert('a')], p, 60_000);
    expect(report.published).toHaveLength(1);
  });

  it('releases the claims of failed entries so the next run retries them at once', async () => {
    const p = ports();
    p.publisher.failKeys.add('b');
    await expect(deliverAlerts([alert('a'), alert('b')], p, 60_000)).rejects.toThrow(/b \(injected failure\)/);
    expect((await p.state.getAlertRecord('a'))?.state).toBe('sent');
    expect(await p.state.getAlertRecord('b')).toBeNull();
    await deliverAlerts([alert('a'), alert('b')], p, 60_000);
    expect(p.publisher.keys()).toEqual(['a', 'b']);
  });

  it('treats a publisher that throws as every entry failed', async () => {
    const p = ports();
    p.publisher.throwNext = new Error('network down');
    await expect(deliverAlerts([alert('a')], p, 60_000)).rejects.toThrow(/network down/);
    expect(await p.state.getAlertRecord('a')).toBeNull();
  });

  it("marks each publish call's alerts sent as soon as that call returns, before the next call starts", async () => {
    const p = ports(1_000_000, 2);
    const statesAtEachCall: (string | undefined)[][] = [];
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const publish = p.publisher.publish.bind(p.publisher);
    p.publisher.publish = (alerts, onAccepted) =>
      publish(alerts, async (accepted) => {
        await onAccepted?.(accepted);
        statesAtEachCall.push(await Promise.all(keys.map(async (k) => (await p.state.getAlertRecord(k))?.state)));
      });
    await deliverAlerts(keys.map(alert), p, 60_000);
    expect(p.publisher.calls).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(statesAtEachCall).toEqual([
      ['sent', 'sent', 'pending', 'pending', 'pending'],
      ['sent', 'sent', 'sent', 'sent', 'pending'],
      ['sent', 'sent', 'sent', 'sent', 'sent'],
    ]);
  });

  it('keeps the calls that went through as sent when the publisher throws in a later call', async () => {
    const p = ports(1_000_000, 1);
    const publish = p.publisher.publish.bind(p.publisher);
    p.publisher.publish = (alerts, onAccepted) =>
      publish(alerts, async (accepted) => {
        await onAccepted?.(accepted);
        if (accepted.includes('a')) throw new Error('connection lost');
      });
    await expect(deliverAlerts([alert('a'), alert('b')], p, 60_000)).rejects.toThrow(/connection lost/);
    expect((await p.state.getAlertRecord('a'))?.state).toBe('sent');
    expect(await p.state.getAlertRecord('b')).toBeNull();
  });

  it('parks an alert the channel will never take, with its reason, counts it and tells the operator; the rest go on', async () => {
    const p = ports();
    p.publisher.refuseKeys.add('b');
    const report = await deliverAlerts([alert('a'), alert('b'), alert('c')], p, 60_000);
    expect(report.published.map((a) => a.key)).toEqual(['a', 'c']);
    expect(report.parked.map((a) => a.key)).toEqual(['b']);
    expect(await p.state.getAlertRecord('b')).toMatchObject({
      state: 'parked',
      reason: 'injected refusal (InvalidParameter)',
      alert: { key: 'b' },
    });
    expect(p.telemetry.sum('AlertsUndeliverable')).toBe(1);
    expect(p.operator.notices).toEqual([expect.objectContaining({ kind: 'alert-undeliverable', message: expect.stringContaining('b was not delivered') })]);
  });

  it('never publishes a parked alert again, and does not stop at it', async () => {
    const p = ports();
    p.publisher.refuseKeys.add('b');
    await deliverAlerts([alert('b')], p, 60_000);
    p.publisher.refuseKeys.clear();
    p.set(1_000_000 + 10 * 60_000);
    const report = await deliverAlerts([alert('b')], p, 60_000);
    expect(report.parked.map((a) => a.key)).toEqual(['b']);
    expect(p.publisher.calls).toEqual([['b']]);
    expect(p.operator.notices).toHaveLength(1);
  });
});
