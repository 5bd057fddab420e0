// The human renderings of an alert: pure functions of the alert, so that a retry renders the same text.
import type { Alert } from '../alert-kinds/alert';
import type { Rendering } from '../deliver/outgoing-alert';
import { renderEmail } from './email';
import { renderSms } from './sms';
import { renderSubject } from './subject';
import { boundChainFields } from './chain-fields';

export function render(whole: Alert): Rendering {
  // Worded from the texts as bounded for every output: a 300 KB call argument reads as its start and its length.
  const alert = boundChainFields(whole);
  return { subject: renderSubject(alert), email: renderEmail(alert), sms: renderSms(alert) };
}

export { renderEmail } from './email';
export { renderSms } from './sms';
export { renderSubject, SUBJECT_MAX } from './subject';
export { sanitizeUntrusted, toPrintableAscii } from './untrusted-text';
export { fitSms, gsm7Length, isGsm7, smsLength, toGsm7, SMS_GSM7_LIMIT, SMS_UCS2_LIMIT } from './gsm7';
export { formatStx, formatCount, type StxStyle } from './stx-amount';
export { decodeMemo, explorerTxUrl, type Memo } from './chain-text';
export { renderTerminal } from './terminal';
