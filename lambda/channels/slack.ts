// Slack incoming webhook: `text` (the notification's fallback) and Block Kit `blocks`: a header, the fields as
// one mrkdwn section each, and a button to the explorer. Slack caps a header at 150 characters and a section's
// text at 3,000; on-chain text is escaped (&, <, >), so it can never form a link or a <!channel> mention.
import { cut, type ChatView } from './chat-view';
import { serviceUrl, type ChatChannel } from './channel';

const HEADER_MAX = 150;
const SECTION_MAX = 3_000;
const FALLBACK_MAX = 3_000;
/** Slack allows 50 blocks; the header, the rule line and the button leave room for this many fields. */
const FIELDS_MAX = 40;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const slackChannel = {
  name: 'slack',
  variables: ['SLACK_WEBHOOK_URL'],
  fromEnv: (env) => (env.SLACK_WEBHOOK_URL ? { url: serviceUrl(env.SLACK_WEBHOOK_URL, 'SLACK_WEBHOOK_URL').href } : null),
  request(view, { url }) {
    const title = `${view.level}: ${view.title}`;
    const fields = view.fields.slice(0, FIELDS_MAX).map(([label, value]) => ({
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`*${escape(label)}*\n${escape(value)}`, SECTION_MAX) },
    }));
    const button = view.link
      ? [{ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in the explorer' }, url: view.link }] }]
      : [];
    return {
      url,
      body: {
        text: cut(escape(title), FALLBACK_MAX),
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: cut(title, HEADER_MAX) } },
          { type: 'context', elements: [{ type: 'mrkdwn', text: cut(`${view.level} · rule: ${escape(view.rule)}`, SECTION_MAX) }] },
          ...fields,
          ...button,
        ],
      },
    };
  },
} satisfies ChatChannel<{ url: string }>;
