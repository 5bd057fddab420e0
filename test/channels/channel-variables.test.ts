// The chat channels' variables as the local runner reads them: a misspelled one is named with the variable
// meant, and the channels that are on are listed with the host they post to, never their secret.
import { describe, expect, it } from 'vitest';
import { channelVariableNearMisses, describeChatChannels } from '../../lambda/channels/registry';

describe('channel variables', () => {
  it.each([
    ['SLACK_WEBHOOK', 'SLACK_WEBHOOK_URL'],
    ['SLACK_URL', 'SLACK_WEBHOOK_URL'],
    ['DISCORD_URL', 'DISCORD_WEBHOOK_URL'],
    ['TELEGRAM_TOKEN', 'TELEGRAM_BOT_TOKEN'],
    ['PAGERDUTY_KEY', 'PAGERDUTY_ROUTING_KEY'],
  ])('names %s, which no channel reads, with the variable meant (%s), never its value', (given, meant) => {
    const warnings = channelVariableNearMisses({ [given]: 'https://hooks.example.com/SECRET123', PATH: '/usr/bin' });
    expect(warnings).toEqual([expect.stringContaining(`${given} is set, but no chat channel reads it: did you mean ${meant}?`)]);
    expect(warnings.join('\n')).not.toContain('SECRET123');
  });

  it('says nothing of the variables the channels read, nor of unrelated ones', () => {
    expect(channelVariableNearMisses({ SLACK_WEBHOOK_URL: 'https://hooks.slack.com/x', TELEGRAM_CHAT_ID: '1', HOME: '/home/a', LOG_LEVEL: 'info' })).toEqual(
      [],
    );
  });

  it('lists the channels that are on with the host each posts to, never the path, token or key', () => {
    const text = describeChatChannels({
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T1/B2/SLACKSECRET',
      TELEGRAM_BOT_TOKEN: '123:TGSECRET',
      TELEGRAM_CHAT_ID: '-100',
      PAGERDUTY_ROUTING_KEY: 'PDSECRET',
    });
    expect(text).toContain('Chat: slack posts to hooks.slack.com, telegram posts to api.telegram.org, pagerduty posts to events.pagerduty.com');
    expect(text).not.toMatch(/SLACKSECRET|TGSECRET|PDSECRET|services/);
  });

  it('says which variables turn a channel on when none is, and names a channel whose setting is wrong', () => {
    expect(describeChatChannels({})).toMatch(
      /^Chat: none \(.*SLACK_WEBHOOK_URL, DISCORD_WEBHOOK_URL, TELEGRAM_BOT_TOKEN, PAGERDUTY_ROUTING_KEY: docs\/chat-channels\.md\)/,
    );
    expect(describeChatChannels({ DISCORD_WEBHOOK_URL: 'not a url' })).toContain('discord: DISCORD_WEBHOOK_URL is not a URL');
  });

  it('adds each near miss under the list', () => {
    expect(describeChatChannels({ SLACK_URL: 'x' })).toContain('SLACK_URL is set, but no chat channel reads it: did you mean SLACK_WEBHOOK_URL?');
  });
});
