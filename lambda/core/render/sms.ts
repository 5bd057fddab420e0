// The SMS: the essentials first, in GSM-7, cut to one 160-character message. Each kind puts what matters
// most first, so that a cut only loses the tail (a log value, a memo, a summary).
import type { Alert } from '../alert-kinds/alert';
import { kindOf } from '../alert-kinds/registry';
import { brand, ruleNamePrefix } from './alert-wording';
import { fitSms, toGsm7 } from './gsm7';

export function renderSms(alert: Alert): string {
  const message = toGsm7(`${brand(alert.network)}: ${ruleNamePrefix(alert)}${kindOf(alert).sms(alert)}`);
  return fitSms(message.replace(/ {2,}/g, ' ').trim());
}
