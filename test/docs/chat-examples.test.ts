// docs/chat-channels.md shows, for each family of alert, the body each chat channel gets: written by
// `npm run docs:alerts` from the channels' own code, and this test fails while the doc shows anything else.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chatExamples, END, START, withChatExamples } from '../../demo/chat-examples';
import { chatChannels } from '../../lambda/channels/registry';

const doc = () => readFileSync(new URL('../../docs/chat-channels.md', import.meta.url), 'utf8');

describe('docs/chat-channels.md', () => {
  it('shows the chat bodies the channels send today (run `npm run docs:alerts` after a wording change)', () => {
    expect(doc()).toContain(START);
    expect(doc()).toBe(withChatExamples(doc()));
  });

  it('shows one body per channel for each family of alert', () => {
    const examples = chatExamples();
    const families = examples.split('\n').filter((line) => line.startsWith('### '));
    expect(families.length).toBeGreaterThanOrEqual(10);
    for (const channel of Object.keys(chatChannels)) {
      expect(examples.split(`<summary>${channel}</summary>`).length - 1, channel).toBe(families.length);
    }
  });

  it('fails a doc whose examples were edited by hand', () => {
    const edited = doc().replace(/"text": "[^"]*"/, '"text": "edited by hand"');
    expect(edited).not.toBe(doc());
    expect(withChatExamples(edited)).not.toBe(edited);
    expect(() => withChatExamples(doc().replace(END, ''))).toThrow(/markers/);
  });
});
