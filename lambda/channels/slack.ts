// Slack incoming webhook: `text` (the notification's fallback) and Block Kit `blocks`: a header, the rule, the
// fields as one mrkdwn section each, and a button to the explorer. Slack caps a header at 150 characters, a
// mrkdwn text at 3,000 and a message at 50 blocks. On-chain text is escaped (&, <, >), so it can form no
// link or <!channel> mention; mrkdwn is `verbatim` (Slack links no bare URL in it) and a URL or domain name
// written on chain is a code span, which Slack never links, in the fallback text too.
import { cut, type ChatView } from './chat-view';
import { fit, type TextFormat } from './chat-text';
import { serviceUrl, type ChatChannel } from './channel';

const HEADER_MAX = 150;
const SECTION_MAX = 3_000;
const FALLBACK_MAX = 3_000;
/** Slack allows 50 blocks; the header, the rule line and the button leave room for this many fields. */
const FIELDS_MAX = 40;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const MRKDWN: TextFormat = { plain: escape, inert: (text) => `\`${escape(text)}\`` };
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text, verbatim: true });

export const slackChannel = {
  name: 'slack',
  variables: ['SLACK_WEBHOOK_URL'],
  fromEnv: (env) => (env.SLACK_WEBHOOK_URL ? { url: serviceUrl(env.SLACK_WEBHOOK_URL, 'SLACK_WEBHOOK_URL').href } : null),
  request(view, { url }) {
    const title = `${view.level}: ${view.title}`;
    const fields = view.fields.slice(0, FIELDS_MAX).map(([label, value]) => {
      const head = `*${escape(cut(label, 200))}*\n`;
      return { type: 'section', text: mrkdwn(`${head}${fit(value, SECTION_MAX - head.length, MRKDWN)}`) };
    });
    const button = view.link
      ? [{ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in the explorer' }, url: view.link }] }]
      : [];
    return {
      url,
      body: {
        text: fit(title, FALLBACK_MAX, MRKDWN),
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: cut(title, HEADER_MAX) } },
          { type: 'context', elements: [mrkdwn(`${view.level} · rule: ${fit(view.rule, SECTION_MAX - 40, MRKDWN)}`)] },
          ...fields,
          ...button,
        ],
      },
    };
  },
} satisfies ChatChannel<{ url: string }>;
