// The terminal block, for people watching `npm start`: the severity and the subject line, the few fields that
// matter (one per line, indented), then the explorer link. No brand and no email footer: the reader is already
// at the watcher.
import type { Alert } from '../alert-kinds/alert';
import { kindOf, ruleOf } from '../alert-kinds/registry';
import { renderSubject } from './subject';

export function renderTerminal(alert: Alert): string {
  const kind = kindOf(alert);
  const rows = kind.terminal(alert);
  const width = Math.max(0, ...rows.map(([label]) => label.length)) + 2;
  const headline = `${ruleOf(alert).severity.toUpperCase().padEnd(8)} ${renderSubject(alert).replace(/^\[stacks-watch[^\]]*\]\s*/, '')}`;
  const lines = [headline, ...rows.map(([label, value]) => `  ${`${label}:`.padEnd(width)}${value}`)];
  const link = kind.link(alert);
  if (link !== null) lines.push(`  ${link}`);
  return `${lines.join('\n')}\n`;
}
