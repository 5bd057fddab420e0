// `npm start -- history` shows each alert's delivery to each chat channel, as the state file keeps it.
import { describe, expect, it } from 'vitest';
import { fileRecords, formatHistory, historyEntries } from '../../lambda/local/history-command';
import { emptyDocument } from '../../lambda/adapters/file/state-document';
import { transfer } from '../render/alerts';

const NOW = Date.parse('2026-11-25T21:00:00Z');

function doc() {
  const alert = transfer();
  const state = emptyDocument('mainnet');
  state.alerts[alert.key] = { state: 'sent', claimedAt: NOW - 1_000, sentAt: NOW - 1_000, alert, expiresAt: NOW + 86_400_000 };
  state.chat = {
    [alert.key]: {
      slack: { state: 'failed', attempts: 1, at: NOW, reason: 'HTTP 500: slack is down' },
      pagerduty: { state: 'sent', attempts: 1, at: NOW },
    },
  };
  return { state, alert };
}

describe('history with chat channels', () => {
  it('shows under an alert sent to stdout that Slack failed, with the reason, and PagerDuty took it', () => {
    const lines = formatHistory(historyEntries(fileRecords(doc().state), NOW), false).split('\n');
    expect(lines[0]).toMatch(/^2026-11-25T20:59:59Z {2}sent {7}/);
    expect(lines[1]).toBe(`${' '.repeat(22)}chat: slack failed: HTTP 500: slack is down · pagerduty sent`);
  });

  it("gives each channel's record in --json", () => {
    const { state, alert } = doc();
    const [entry] = formatHistory(historyEntries(fileRecords(state), NOW), true)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entry).toMatchObject({
      key: alert.key,
      state: 'sent',
      chat: { slack: { state: 'failed', reason: 'HTTP 500: slack is down' }, pagerduty: { state: 'sent' } },
    });
  });

  it('adds nothing for an alert no channel was given', () => {
    const { state } = doc();
    delete state.chat;
    expect(formatHistory(historyEntries(fileRecords(state), NOW), false)).not.toContain('chat:');
  });
});
