// A minimal stacks-watch webhook receiver: Node 18 or newer, no dependencies. Run it behind HTTPS (a load
// balancer, a tunnel) and subscribe its URL with `-c alertWebhooks=https://…/`. The README explains it.
//
//   PORT=8080 node docs/examples/webhook-receiver.mjs
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

// SNS confirms a subscription through a URL of its own, in the region of the topic; follow no other.
const SNS_URL = /^https:\/\/sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\//;

/**
 * The receiver: `onAlert(alert)` gets each alert's JSON object (raw message delivery, the default), whose
 * `key` is unique per alert: SNS may deliver a message more than once, so drop keys already seen.
 */
export function createReceiver(onAlert, { confirm = (url) => fetch(url) } = {}) {
  return createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    try {
      const type = request.headers['x-amz-sns-message-type'];
      if (type === 'SubscriptionConfirmation') {
        // Sent once, as SNS's JSON envelope, when the subscription is made: visiting SubscribeURL confirms it.
        const { SubscribeURL } = JSON.parse(body);
        if (!SNS_URL.test(SubscribeURL)) throw new Error(`not an SNS URL: ${SubscribeURL}`);
        await confirm(SubscribeURL);
      } else if (type === 'Notification') {
        await onAlert(JSON.parse(body));
      }
      response.writeHead(200).end();
    } catch (error) {
      console.error(error);
      // A server error makes SNS retry the delivery (see the README for its retry policy).
      response.writeHead(500).end();
    }
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seen = new Set();
  createReceiver((alert) => {
    if (seen.has(alert.key)) return;
    seen.add(alert.key);
    console.log(`${alert.severity ?? 'warning'} ${alert.rule ?? ''}: ${alert.type} ${alert.key}`);
  }).listen(Number(process.env.PORT ?? 8080));
}
