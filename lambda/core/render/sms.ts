// The SMS: the rule's name, what happened in plain words, then the explorer link, in GSM-7 and one
// 160-character message. Each kind puts what matters most first, so that a cut only loses the tail (a log
// value, a memo, a summary); the link is never cut: it is counted first and the words fit the rest.
import type { Alert } from '../alert-kinds/alert';
import { kindOf } from '../alert-kinds/registry';
import { brand, ruleNamePrefix } from './alert-wording';
import { fitSms, gsm7Length, isGsm7, SMS_GSM7_LIMIT, toGsm7 } from './gsm7';

/** The explorer link as short as it goes: mainnet is the explorer's default chain. */
export function smsLink(link: string | null): string | null {
  return link === null ? null : link.replace(/\?chain=mainnet$/, '');
}

/** A real explorer link is at most about 110 characters (a testnet transaction's); the words keep the rest. */
const LINK_MAX = SMS_GSM7_LIMIT - 40;

const tidy = (text: string) => toGsm7(text).replace(/ {2,}/g, ' ').trim();

export function renderSms(alert: Alert): string {
  const kind = kindOf(alert);
  const link = smsLink(kind.link(alert));
  const branded = tidy(`${brand(alert.network)}: ${ruleNamePrefix(alert)}${kind.sms(alert)}`);
  // A link leaves room for a few words only in GSM-7 (70 characters of UCS-2 hold no link); the link says
  // where the alert is from, so the brand gives its characters to the words.
  const words = tidy(`${ruleNamePrefix(alert)}${kind.sms(alert)}`);
  // A link that leaves no room for words (a transaction id far longer than any real one) is left out.
  if (link === null || !isGsm7(words) || !isGsm7(link) || gsm7Length(link) > LINK_MAX) return fitSms(branded);
  return `${fitSms(words, SMS_GSM7_LIMIT - gsm7Length(link) - 1)} ${link}`;
}
