// How a subscriber's endpoint may be named outside SNS. A webhook URL is often the credential itself (a token
// in its path or query, a basic-auth password), and logical ids, construct paths and the synth's messages are
// printed by `cdk diff`, the deploy output and the stack events: there a webhook is its scheme and host, and
// a construct is named by a hash of the URL.
import { createHash } from 'node:crypto';

const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s"'`,\]})]*)/gi;

/** A URL as it may be shown: its scheme and host, the rest (user, password, path, query) as `…`. */
export function shownUrl(url: string): string {
  return url.replace(URL_IN_TEXT, (_, scheme: string, rest: string) => {
    // The host ends at the first / ? # after the last @ (a password may hold any of them, unencoded).
    const afterUser = rest.slice(rest.lastIndexOf('@') + 1);
    const host = afterUser.split(/[/?#]/)[0] ?? '';
    return `${scheme}${host}${afterUser.length > host.length || rest.includes('@') ? '/…' : ''}`;
  });
}

/** A subscriber as the synth names it: a webhook by scheme and host, an email or phone number as it is. */
export function shownEndpoint(protocol: string, endpoint: string): string {
  return protocol === 'https' ? shownUrl(endpoint) : endpoint;
}

/**
 * A construct id for a webhook: 12 hex digits of the URL's SHA-256, the same on every synth (so the subscription
 * is not replaced by a deploy that leaves it alone) and telling nothing of the URL.
 */
export function webhookId(url: string): string {
  return `https-${createHash('sha256').update(url).digest('hex').slice(0, 12)}`;
}
