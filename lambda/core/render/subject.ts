// The email subject: one line of printable ASCII under 100 characters, because SNS rejects anything else.
import type { Alert } from '../domain';
import { brand, retractedLabel, statusPhrase, windowFloor } from './alert-wording';
import { contractName, shortPrincipal, shortTxId } from './chain-text';
import { formatCount, stxOrAsReceived } from './stx-amount';
import { sanitizeUntrusted, toPrintableAscii, truncate } from './untrusted-text';

/** SNS requires a subject shorter than 100 characters. */
export const SUBJECT_MAX = 99;

const MARKER = '...';

function body(alert: Alert): string {
  switch (alert.type) {
    case 'token_transfer':
      return `${stxOrAsReceived(alert.amount, 'short')} to ${shortPrincipal(alert.recipient, MARKER)} (block ${formatCount(alert.block_height)})`;
    case 'contract_log':
      return `${sanitizeUntrusted(alert.topic, 30)} from ${contractName(alert.contract_id)} (block ${formatCount(alert.block_height)})`;
    case 'contract_status':
      return `contract ${shortPrincipal(alert.contract_id, MARKER)} ${statusPhrase(alert)}`;
    case 'retraction':
      return `RETRACTED: ${retractedLabel(alert)} tx ${shortTxId(alert.tx_id, MARKER)} in block ${formatCount(alert.block_height)} (reorg)`;
    case 'deep_reorg':
      return `deep reorg below block ${formatCount(windowFloor(alert))}: older alerts unverified, action needed`;
  }
}

export function renderSubject(alert: Alert): string {
  const line = `[${brand(alert.network)}] ${body(alert)}`;
  // Parts are already capped; the whole line is cleaned again for what the templates themselves add.
  return truncate(toPrintableAscii(sanitizeUntrusted(line, SUBJECT_MAX * 4)), SUBJECT_MAX, MARKER);
}
