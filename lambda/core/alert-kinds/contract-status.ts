// `contract_status`: a watched contract's deployment status, on first sight and on every change. Raised by
// the status check (contract-status-watch.ts), not found in blocks.
import type { AlertBase } from './alert-base';
import { fields, id, networkName, smsWhere } from '../render/email-parts';
import { explorerTxUrl, LIMITS, shortPrincipal } from '../render/chain-text';
import { formatCount } from '../render/stx-amount';
import { sanitizeUntrusted } from '../render/untrusted-text';
import { deployFailureWords } from '../render/tx-outcome';
import type { Field, WatcherKind } from './kind';
import type { ContractStatus } from '../domain';
import type { RuleMeta } from '../stages/rule-meta';

export interface ContractStatusAlert extends AlertBase {
  type: 'contract_status';
  contract_id: string;
  found: boolean;
  status: string | null;
  tx_id: string | null;
  block_height: number | null;
  previous: { found: boolean; status: string | null } | null;
}

/** A status check's finding: the stored status (none at first sight), the API's, and the rule the alert goes under. */
export interface StatusChange {
  previous: { found: boolean; status: string | null; changes: number } | undefined;
  current: ContractStatus;
  meta: RuleMeta;
}

/**
 * `change` counts the contract's status alerts, so A → B → A alerts three times; numbered by the change, a
 * crash before the new status is stored recomputes the same key.
 */
const key = (contractId: string, change: number) => `contract_status:${contractId}:${change}`;

const MARKER = '...';
const FAILED = new Set(['abort_by_response', 'abort_by_post_condition', 'problematic_skipped']);

/** What a deployment status means, e.g. `deployed: success`, `deploy failed: its code returned an error`. */
export function deployPhrase(found: boolean, status: string | null): string {
  if (!found) return 'not found';
  const clean = sanitizeUntrusted(status ?? 'unknown', LIMITS.status);
  if (status === 'success') return 'deployed: success';
  if (status === 'pending') return 'deploy pending';
  if (status !== null && FAILED.has(status)) return `deploy failed: ${deployFailureWords(status)}`;
  return `status: ${clean}`;
}

function statusPhrase(alert: ContractStatusAlert): string {
  if (!alert.found && alert.previous?.found) return 'no longer found';
  return deployPhrase(alert.found, alert.status);
}

function previousPhrase(alert: ContractStatusAlert): string {
  return alert.previous ? deployPhrase(alert.previous.found, alert.previous.status) : 'not watched before';
}

const statusLine = (a: ContractStatusAlert) => (a.previous ? `${previousPhrase(a)} -> ${statusPhrase(a)}` : statusPhrase(a));
const blockLine = (a: ContractStatusAlert) => (a.block_height === null ? (a.found ? 'not mined yet' : 'none') : formatCount(a.block_height));

export const contractStatusKind = {
  type: 'contract_status',
  key,

  build: ({ previous, current, meta }, network) => ({
    type: 'contract_status',
    key: key(current.contractId, (previous?.changes ?? 0) + 1),
    network,
    contract_id: current.contractId,
    found: current.found,
    status: current.found ? current.status : null,
    tx_id: current.found ? current.txId : null,
    block_height: current.found ? current.blockHeight : null,
    previous: previous ? { found: previous.found, status: previous.status } : null,
    ...meta,
  }),

  subject: (a) => `contract ${shortPrincipal(a.contract_id, MARKER)} ${statusPhrase(a)}`,

  email(a) {
    const headline = a.previous
      ? `The deployment status of a watched contract changed on ${networkName(a.network)}.`
      : `First check of a watched contract's deployment on ${networkName(a.network)}.`;
    const rows: Field[] = [
      ['Contract', id(a.contract_id)],
      ['Status', statusLine(a)],
      ['Deploy tx', a.tx_id === null ? 'none' : id(a.tx_id)],
      ['Block', blockLine(a)],
    ];
    if (a.tx_id !== null) rows.push(['Explorer', explorerTxUrl(a.tx_id, a.network)]);
    const lines = [headline, '', fields(rows)];
    if (!a.found) {
      lines.push(
        '',
        a.previous?.found
          ? 'The API no longer knows a deploy transaction for this contract: a pending deploy was dropped from the mempool, or replaced.'
          : 'The API knows no deploy transaction for this contract id. Check the id in the watch config, or wait for the deploy to be broadcast.',
      );
    }
    return lines.join('\n');
  },

  sms(a) {
    const was = a.previous ? ` (was ${previousPhrase(a)})` : '';
    // With a deploy to link to, the contract's name alone (the link names the rest); without, its whole id, short.
    const name = a.tx_id !== null ? sanitizeUntrusted(a.contract_id.split('.')[1] ?? a.contract_id, 40) : `contract ${shortPrincipal(a.contract_id, MARKER)}`;
    return `${name} ${statusPhrase(a)}${was} ${smsWhere(a.block_height, a.tx_id)}`;
  },

  terminal: (a) => [
    ['Contract', id(a.contract_id)],
    ['Status', statusLine(a)],
    ['Block', blockLine(a)],
  ],
  link: (a) => (a.tx_id === null ? null : explorerTxUrl(a.tx_id, a.network)),

  attributes: (a) => ({ contract_id: a.contract_id }),

  sample: {
    type: 'contract_status',
    key: key('SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.stacking-dao-core-v1', 2),
    network: 'mainnet',
    contract_id: 'SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.stacking-dao-core-v1',
    found: true,
    status: 'success',
    tx_id: '0x10bdcf10ffee72994f493ac36760f4e95a76c8471370182fd4705c2153dc173d',
    block_height: 111021,
    previous: { found: true, status: 'pending' },
    rule: 'contracts',
    severity: 'warning',
  },
} satisfies WatcherKind<ContractStatusAlert, StatusChange>;
