// The SMS: the essentials first, in GSM-7, cut to one 160-character message. What matters most comes
// first, so that a cut only loses the tail (a log value, a memo, a summary).
import type { Alert } from '../domain';
import { brand, previousPhrase, retractedLabel, statusPhrase, windowFloor } from './alert-wording';
import { contractName, decodeMemo, LIMITS, shortPrincipal, shortTxId } from './chain-text';
import { fitSms, toGsm7 } from './gsm7';
import { stxOrAsReceived } from './stx-amount';
import { sanitizeUntrusted } from './untrusted-text';

const MARKER = '...';

function where(blockHeight: number | null, txId: string | null): string {
  const parts = [blockHeight === null ? '' : `blk ${blockHeight}`, txId === null ? '' : `tx ${shortTxId(txId, MARKER)}`];
  return parts.filter(Boolean).join(' ');
}

function text(alert: Alert): string {
  switch (alert.type) {
    case 'token_transfer': {
      const memo = decodeMemo(alert.memo);
      const memoText = memo.kind === 'text' ? ` memo: ${memo.text}` : '';
      return `${stxOrAsReceived(alert.amount, 'plain')} to ${shortPrincipal(alert.recipient, MARKER)} ${where(alert.block_height, alert.tx_id)} from ${shortPrincipal(alert.sender, MARKER)}${memoText}`;
    }
    case 'contract_log':
      return (
        `${sanitizeUntrusted(alert.topic, 30)} from ${contractName(alert.contract_id)} ${where(alert.block_height, alert.tx_id)}: ` +
        sanitizeUntrusted(alert.value_repr, 200)
      );
    case 'contract_status': {
      const was = alert.previous ? ` (was ${previousPhrase(alert)})` : '';
      return `contract ${shortPrincipal(alert.contract_id, MARKER)} ${statusPhrase(alert)}${was} ${where(alert.block_height, alert.tx_id)}`;
    }
    case 'retraction':
      return (
        `RETRACTED (reorg): ${retractedLabel(alert)} ${where(alert.block_height, alert.tx_id)} is void. ` +
        `Was: ${sanitizeUntrusted(alert.summary, LIMITS.summary)}`
      );
    case 'deep_reorg':
      return `DEEP REORG: fork below block ${windowFloor(alert)}, deeper than the watcher can check. Alerts for older blocks may be void; see email.`;
  }
}

export function renderSms(alert: Alert): string {
  const message = toGsm7(`${brand(alert.network)}: ${text(alert)}`);
  return fitSms(message.replace(/ {2,}/g, ' ').trim());
}
