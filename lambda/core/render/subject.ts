// The email subject: one line of printable ASCII under 100 characters, because SNS rejects anything else.
import type { Alert } from '../alert-kinds/alert';
import { kindOf } from '../alert-kinds/registry';
import { brand, ruleNamePrefix } from './alert-wording';
import { sanitizeUntrusted, toPrintableAscii, truncate } from './untrusted-text';

/** SNS requires a subject shorter than 100 characters. */
export const SUBJECT_MAX = 99;

const MARKER = '...';

export function renderSubject(alert: Alert): string {
  const line = `[${brand(alert.network)}] ${ruleNamePrefix(alert)}${kindOf(alert).subject(alert)}`;
  // Parts are already capped; the whole line is cleaned again for what the templates themselves add.
  return truncate(toPrintableAscii(sanitizeUntrusted(line, SUBJECT_MAX * 4)), SUBJECT_MAX, MARKER);
}
