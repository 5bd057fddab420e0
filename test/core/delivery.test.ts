import { describe, expect, it } from 'vitest';
import { AlertInFlightError, deliverAlerts } from '../../lambda/core/delivery';
import type { TokenTransferAlert } from '../../lambda/core/domain';
import { DocumentStateStore, emptyDocument } from '../../lambda/adapters/file/state-document';
import { RecordingPublisher } from '../support/recording-publisher';

const alert = (key: string): TokenTransferAlert => ({
  type: 'token_transfer', key, network: 'mainnet', tx_id: '0x01', block_height: 1, block_hash: '0x02', block_time: 1,
  sender: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7', recipient: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR', amount: '1', memo: '0x',
});

function ports(now = 1_000_000) {
  const clock = { now: () => now };
  return { state: new DocumentStateStore(emptyDocument('mainnet')), publisher: new RecordingPublisher(), clock, set: (t: number) => { now = t; } };
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
});
