// Alert claims against a real DynamoDB API (dynalite): each alert is published by one run only.
import { describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ContractLogAlert, TokenTransferAlert } from '../../../lambda/core/alert-kinds/alert';
import type { ClaimOutcome } from '../../../lambda/core/ports';
import { useLocalStateTable } from './local-state-table';

const table = useLocalStateTable();

const now = 1_700_000_000_000;
const staleAfter = 5 * 60_000;

const transfer: TokenTransferAlert = {
  type: 'token_transfer',
  key: 'token_transfer:0x7f3c9e1a',
  network: 'mainnet',
  tx_id: '0x7f3c9e1a',
  block_height: 180_000,
  block_hash: '0xb10c',
  block_time: 1_700_000_000,
  sender: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7',
  recipient: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE',
  amount: '18446744073709551615',
  memo: '0x',
  memo_text: null,
};

// The store reads records against its own clock (getAlertRecord is not given the time): the same as the tests'.
const store = (options: Parameters<typeof table.store>[0] = {}) => table.store({ now: () => now, ...options });

async function rawItem(alertKey: string) {
  const { Item } = await table.doc().send(new GetCommand({ TableName: table.tableName(), Key: { pk: `NET#mainnet#ALERT#${alertKey}`, sk: 'ALERT' } }));
  return Item;
}

describe('alert claims', () => {
  it('claims a key nobody has claimed', async () => {
    expect(await store().claimAlert(transfer.key, now, staleAfter)).toBe('claimed');
    expect(await store().getAlertRecord(transfer.key)).toEqual({ key: transfer.key, state: 'pending' });
  });

  it('answers sent for a key claimed and marked sent, and keeps the alert for a retraction', async () => {
    const run = store();
    await run.claimAlert(transfer.key, now, staleAfter);
    await run.markAlertSent(transfer.key, now + 10, transfer);
    expect(await store().claimAlert(transfer.key, now + 20, staleAfter)).toBe('sent');
    expect(await run.getAlertRecord(transfer.key)).toEqual({ key: transfer.key, state: 'sent', alert: transfer });
  });

  it('answers in-flight while another run holds a fresh claim', async () => {
    await store().claimAlert(transfer.key, now, staleAfter);
    expect(await store().claimAlert(transfer.key, now + staleAfter - 1, staleAfter)).toBe('in-flight');
  });

  it('lets exactly one of two racing runs take over a stale claim', async () => {
    await store().claimAlert(transfer.key, now, staleAfter);
    const later = now + staleAfter + 1;
    const outcomes = await Promise.all([store().claimAlert(transfer.key, later, staleAfter), store().claimAlert(transfer.key, later, staleAfter)]);
    expect(outcomes.sort()).toEqual(['in-flight', 'stale']);
    expect(await rawItem(transfer.key)).toMatchObject({ state: 'pending', claimedAt: later });
  });

  it('refuses a takeover when another run took the claim over between the read and the write', async () => {
    await store().claimAlert(transfer.key, now, staleAfter);
    const later = now + staleAfter + 1;
    // The slow run's client lets a rival run take the claim over just before the slow run's takeover write.
    const slowClient = table.newClient();
    let rival: ClaimOutcome | undefined;
    slowClient.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as { UpdateExpression?: string };
        if (rival === undefined && input.UpdateExpression?.includes('#claimId')) {
          rival = await store().claimAlert(transfer.key, later, staleAfter);
        }
        return next(args);
      },
      { step: 'initialize' },
    );
    expect(await store({ client: slowClient }).claimAlert(transfer.key, later, staleAfter)).toBe('in-flight');
    expect(rival).toBe('stale');
  });

  it('lets exactly one of two racing runs claim a fresh key', async () => {
    const outcomes = await Promise.all([store().claimAlert(transfer.key, now, staleAfter), store().claimAlert(transfer.key, now, staleAfter)]);
    expect(outcomes.sort()).toEqual(['claimed', 'in-flight']);
  });

  it('treats a record past its expiry that the table has not deleted yet as absent', async () => {
    await table.doc().send(
      new PutCommand({
        TableName: table.tableName(),
        Item: {
          pk: `NET#mainnet#ALERT#${transfer.key}`,
          sk: 'ALERT',
          state: 'sent',
          sentAt: now - 40 * 86_400_000,
          alert: JSON.stringify(transfer),
          expiresAt: Math.floor(now / 1000) - 1,
        },
      }),
    );
    const run = store();
    expect(await run.getAlertRecord(transfer.key)).toBeNull();
    expect(await run.claimAlert(transfer.key, now, staleAfter)).toBe('claimed');
  });

  it('lets a retracted alert be claimed again when its event comes back', async () => {
    const run = store();
    await run.claimAlert(transfer.key, now, staleAfter);
    await run.markAlertSent(transfer.key, now, transfer);
    await run.markAlertRetracted(transfer.key, now + 1_000);
    expect((await run.getAlertRecord(transfer.key))?.state).toBe('retracted');
    expect(await store().claimAlert(transfer.key, now + 2_000, staleAfter)).toBe('claimed');
  });

  it('does not create a record when retracting an alert that was never claimed', async () => {
    await store().markAlertRetracted(transfer.key, now);
    expect(await rawItem(transfer.key)).toBeUndefined();
  });

  it('frees a released claim for the next run at once', async () => {
    const run = store();
    await run.claimAlert(transfer.key, now, staleAfter);
    await run.releaseAlertClaim(transfer.key);
    expect(await store().claimAlert(transfer.key, now + 1, staleAfter)).toBe('claimed');
  });

  it('never releases an alert already marked sent', async () => {
    const run = store();
    await run.claimAlert(transfer.key, now, staleAfter);
    await run.markAlertSent(transfer.key, now, transfer);
    await run.releaseAlertClaim(transfer.key);
    expect((await run.getAlertRecord(transfer.key))?.state).toBe('sent');
  });

  it('does not release a claim that another run has taken over since', async () => {
    const slow = store();
    await slow.claimAlert(transfer.key, now, staleAfter);
    expect(await store().claimAlert(transfer.key, now + staleAfter + 1, staleAfter)).toBe('stale');
    await slow.releaseAlertClaim(transfer.key);
    expect(await rawItem(transfer.key)).toMatchObject({ state: 'pending', claimedAt: now + staleAfter + 1 });
  });

  it('marks a huge alert sent, keeping a copy with its long fields cut that still names what to retract', async () => {
    const huge: ContractLogAlert = {
      type: 'contract_log',
      key: 'contract_log:0x9d:0',
      network: 'mainnet',
      tx_id: '0x9d',
      block_height: 180_001,
      block_hash: '0xb10d',
      block_time: 1_700_000_600,
      event_index: 0,
      contract_id: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-dao',
      topic: 'print',
      value_repr: `0x${'ab'.repeat(250_000)}`,
      value_hex: `0x020003d090${'ab'.repeat(250_000)}`,
    };
    const run = store();
    await run.claimAlert(huge.key, now, staleAfter);
    await run.markAlertSent(huge.key, now, huge);
    const kept = (await run.getAlertRecord(huge.key))?.alert as ContractLogAlert;
    expect(kept).toMatchObject({ key: huge.key, tx_id: '0x9d', contract_id: huge.contract_id, topic: 'print', event_index: 0 });
    expect(kept.value_hex.endsWith('...[truncated]')).toBe(true);
  });

  it('sets the TTL attribute in epoch seconds, ttlDays after the write', async () => {
    await store({ ttlDays: 30 }).claimAlert(transfer.key, now, staleAfter);
    expect((await rawItem(transfer.key))?.expiresAt).toBe(Math.floor(now / 1000) + 30 * 86_400);
  });

  it('reports an unreadable record with its key and what to do', async () => {
    await table.doc().send(
      new PutCommand({
        TableName: table.tableName(),
        Item: { pk: `NET#mainnet#ALERT#${transfer.key}`, sk: 'ALERT', state: 'delivered', expiresAt: 9_999_999_999 },
      }),
    );
    await expect(store().getAlertRecord(transfer.key)).rejects.toThrow(new RegExp(`pk "NET#mainnet#ALERT#${transfer.key}".*Fix or delete that item`));
  });

  it('says what is wrong with an unreadable record', async () => {
    await table.doc().send(
      new PutCommand({
        TableName: table.tableName(),
        Item: { pk: `NET#mainnet#ALERT#${transfer.key}`, sk: 'ALERT', state: 'delivered', expiresAt: 9_999_999_999 },
      }),
    );
    await expect(store().getAlertRecord(transfer.key)).rejects.toThrow(
      "Invalid discriminator value. Expected 'pending' | 'sent' | 'retracted' | 'parked' | 'held' | 'muted';   → at state.",
    );
  });
});
