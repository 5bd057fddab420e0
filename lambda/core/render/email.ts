// The email body. It is plain text (SNS email is text/plain): markup in a log value reaches the reader as
// the characters it is made of and can never become a link, an image or a script, so it is shown as is,
// not escaped. Chain values are still stripped of control and invisible characters and capped.
import type { Alert, ContractLogAlert, ContractStatusAlert, DeepReorgAlert, RetractionAlert, TokenTransferAlert } from '../domain';
import { previousPhrase, retractedLabel, statusPhrase, windowFloor } from './alert-wording';
import { decodeMemo, explorerTxUrl, isoTime, LIMITS } from './chain-text';
import { formatCount, formatStx } from './stx-amount';
import { sanitizeUntrusted, truncate } from './untrusted-text';

type Row = readonly [label: string, value: string];

function fields(rows: readonly Row[]): string {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`).join('\n');
}

const id = (value: string) => sanitizeUntrusted(value, LIMITS.id);
const networkName = (alert: Alert) => `Stacks ${alert.network}`;
const block = (height: number, hash: string) => `${formatCount(height)} (hash ${id(hash)})`;

function amount(microStx: string): string {
  try {
    return `${formatStx(microStx, 'exact')} (${microStx} micro-STX)`;
  } catch {
    return `${sanitizeUntrusted(microStx, 60)} micro-STX (not a whole number; shown as received)`;
  }
}

function memo(hex: string): string {
  const decoded = decodeMemo(hex);
  if (decoded.kind === 'none') return 'none';
  if (decoded.kind === 'text') return `"${decoded.text}"`;
  return `${decoded.hex} (not printable text, shown as hex)`;
}

/** The log value, capped, with a note saying how much was cut. */
function logValue(repr: string): string {
  const whole = sanitizeUntrusted(repr, Number.MAX_SAFE_INTEGER);
  const shown = truncate(whole, LIMITS.reprEmail);
  if (shown === whole) return shown;
  const total = Array.from(whole).length;
  return (
    `${shown}\n[cut: the first ${formatCount(LIMITS.reprEmail)} of ${formatCount(total)} characters are shown; ` +
    'the whole value is in the transaction on the explorer]'
  );
}

function tokenTransfer(alert: TokenTransferAlert): string {
  return [
    `A watched address received an STX transfer on ${networkName(alert)}.`,
    '',
    fields([
      ['Amount', amount(alert.amount)],
      ['To', id(alert.recipient)],
      ['From', id(alert.sender)],
      ['Memo', memo(alert.memo)],
      ['Block', block(alert.block_height, alert.block_hash)],
      ['Block time', isoTime(alert.block_time)],
      ['Transaction', id(alert.tx_id)],
      ['Explorer', explorerTxUrl(alert.tx_id, alert.network)],
    ]),
  ].join('\n');
}

function contractLog(alert: ContractLogAlert): string {
  return [
    `A watched contract printed a log on ${networkName(alert)}.`,
    '',
    fields([
      ['Contract', id(alert.contract_id)],
      ['Topic', sanitizeUntrusted(alert.topic, LIMITS.topic)],
      ['Block', block(alert.block_height, alert.block_hash)],
      ['Block time', isoTime(alert.block_time)],
      ['Transaction', id(alert.tx_id)],
      ['Event index', String(alert.event_index)],
      ['Explorer', explorerTxUrl(alert.tx_id, alert.network)],
    ]),
    '',
    'Value (Clarity):',
    logValue(alert.value_repr),
  ].join('\n');
}

function contractStatus(alert: ContractStatusAlert): string {
  const headline = alert.previous
    ? `The deployment status of a watched contract changed on ${networkName(alert)}.`
    : `First check of a watched contract's deployment on ${networkName(alert)}.`;
  const rows: Row[] = [
    ['Contract', id(alert.contract_id)],
    ['Status', alert.previous ? `${previousPhrase(alert)} -> ${statusPhrase(alert)}` : statusPhrase(alert)],
    ['Deploy tx', alert.tx_id === null ? 'none' : id(alert.tx_id)],
    ['Block', alert.block_height === null ? (alert.found ? 'not mined yet' : 'none') : formatCount(alert.block_height)],
  ];
  if (alert.tx_id !== null) rows.push(['Explorer', explorerTxUrl(alert.tx_id, alert.network)]);
  const lines = [headline, '', fields(rows)];
  if (!alert.found) {
    lines.push(
      '',
      alert.previous?.found
        ? 'The API no longer knows a deploy transaction for this contract: a pending deploy was dropped from the mempool, or replaced.'
        : 'The API knows no deploy transaction for this contract id. Check the id in the watch config, or wait for the deploy to be broadcast.',
    );
  }
  return lines.join('\n');
}

function retraction(alert: RetractionAlert): string {
  const what = retractedLabel(alert);
  return [
    'RETRACTED: an earlier stacks-watch alert is void.',
    '',
    `The block that held it (height ${formatCount(alert.block_height)}) was replaced by a chain reorganization on ` +
      `${networkName(alert)}, so the ${what} it reported is no longer on the canonical chain. Disregard the earlier ` +
      'alert. If the transaction is mined again in a new block, a new alert will follow.',
    '',
    fields([
      ['Earlier alert', id(alert.retracts)],
      ['It said', sanitizeUntrusted(alert.summary, LIMITS.summary)],
      ['Type', what],
      ['Transaction', id(alert.tx_id)],
      ['Replaced block', block(alert.block_height, alert.block_hash)],
      ['Explorer', `${explorerTxUrl(alert.tx_id, alert.network)} (shows whether it is pending, dropped or mined again)`],
    ]),
  ].join('\n');
}

function deepReorg(alert: DeepReorgAlert): string {
  const floor = formatCount(windowFloor(alert));
  const top = formatCount(alert.cursor_height);
  return [
    `Operator action needed: a chain reorganization on ${networkName(alert)} went deeper than stacks-watch can check.`,
    '',
    `The block at the watcher's cursor (height ${top}, hash ${id(alert.cursor_hash)}) is no longer on the ` +
      `canonical chain, and neither is any of the ${formatCount(alert.window)} recent blocks the watcher remembers ` +
      `(heights ${floor} to ${top}): the fork began below height ${floor}. The watcher rescans that window, so ` +
      'its alerts are confirmed or retracted as usual. It cannot verify blocks deeper than the window: alerts it ' +
      `sent for blocks below height ${floor} may describe events that are no longer on chain, and no retraction ` +
      'will come for them.',
    '',
    'What to do:',
    `1. Check the alerts you received for blocks below height ${floor}, newest first: open each explorer link and ` +
      'make sure the transaction is still in a canonical block before acting on it.',
    '2. The watcher logs a "deep reorg" error with the cursor and window; read the logs around it for what followed.',
    '3. If this recurs, raise "confirmations" in the watch config so blocks are scanned only once buried deeper.',
  ].join('\n');
}

function footer(alert: Alert): string {
  return [
    '',
    '--',
    `stacks-watch alert ${id(alert.key)}`,
    'This email is plain text: values from the chain are shown as they are, markup included, with control and',
    'invisible characters removed.',
  ].join('\n');
}

export function renderEmail(alert: Alert): string {
  const main = (() => {
    switch (alert.type) {
      case 'token_transfer':
        return tokenTransfer(alert);
      case 'contract_log':
        return contractLog(alert);
      case 'contract_status':
        return contractStatus(alert);
      case 'retraction':
        return retraction(alert);
      case 'deep_reorg':
        return deepReorg(alert);
    }
  })();
  return `${main}\n${footer(alert)}\n`;
}
