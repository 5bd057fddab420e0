// The email body. It is plain text (SNS email is text/plain): markup in a log value reaches the reader as
// the characters it is made of and can never become a link, an image or a script, so it is shown as is,
// not escaped. Chain values are still stripped of control and invisible characters and capped.
import type { Alert } from '../alert-kinds/alert';
import { kindOf, ruleOf } from '../alert-kinds/registry';
import { id } from './email-parts';

function footer(alert: Alert): string {
  const { rule, severity } = ruleOf(alert);
  return [
    '',
    '--',
    `stacks-watch alert ${id(alert.key)}`,
    `Rule: ${id(rule)}, severity ${id(severity)}`,
    'This email is plain text: values from the chain are shown as they are, markup included, with control and',
    'invisible characters removed.',
  ].join('\n');
}

export function renderEmail(alert: Alert): string {
  return `${kindOf(alert).email(alert)}\n${footer(alert)}\n`;
}
