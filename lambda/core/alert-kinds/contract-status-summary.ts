// `contract_status_summary`: the first check of many watched contracts in one alert. A first sweep of
// 10,000 `contracts` would otherwise send 10,000 first-sight emails; more than a few first sights in a cycle
// are summed up here instead (contract-status-sweep.ts), and from then on each change alerts on its own.
import type { AlertBase } from './alert-base';
import type { ContractStatusAlert } from './contract-status';
import { deployPhrase } from './contract-status';
import { fields, id, networkName } from '../render/email-parts';
import { formatCount } from '../render/stx-amount';
import type { Field, WatcherKind } from './kind';
import type { RuleMeta } from '../stages/rule-meta';

export interface ContractStatusSummaryAlert extends AlertBase {
  type: 'contract_status_summary';
  /** Contracts checked for the first time, summed up here rather than alerted one by one. */
  contracts: number;
  /** How many are in each state: a deploy status as the API gives it (`success`, `pending`, …), or `not_found`. */
  statuses: Record<string, number>;
  /** Contracts the API knows no deploy of (a typo in the config, or a deploy not broadcast yet): the first NOT_FOUND_LISTED. */
  not_found: string[];
}

/** The first sights a summary is made of, and the rule they come under. */
export interface FirstSights {
  alerts: readonly ContractStatusAlert[];
  meta: RuleMeta;
}

/** Enough to find a typo in the config; the count of the rest is in `statuses.not_found`. */
export const NOT_FOUND_LISTED = 50;
const NOT_FOUND = 'not_found';

/**
 * Named by its contracts in config order, the first and the last: a retry after a crash before the statuses
 * were stored finds the same contracts unseen and sends the same summary, once.
 */
const key = (count: number, first: string, last: string) => `contract_status_summary:${count}:${first}:${last}`;

const stateOf = (a: Pick<ContractStatusAlert, 'found' | 'status'>) => (a.found ? (a.status ?? 'unknown') : NOT_FOUND);
const phraseOf = (state: string) => (state === NOT_FOUND ? 'not found' : state === 'success' ? 'deployed' : deployPhrase(true, state));

/** `9,990 deployed, 10 not found`, most common first. */
function tally(a: ContractStatusSummaryAlert): string {
  return Object.entries(a.statuses)
    .sort(([, x], [, y]) => y - x)
    .map(([state, count]) => `${formatCount(count)} ${phraseOf(state)}`)
    .join(', ');
}

const headline = (a: ContractStatusSummaryAlert) => `first check of ${formatCount(a.contracts)} contracts`;

/** How many not-found ids a terminal line (and a chat field) names, each whole, before counting the rest. */
const NOT_FOUND_INLINE = 5;

function notFoundRow(a: ContractStatusSummaryAlert): Field[] {
  const total = a.statuses[NOT_FOUND] ?? 0;
  if (total === 0) return [];
  const shown = a.not_found.slice(0, NOT_FOUND_INLINE).map(id);
  return [['Not found', `${shown.join(', ')}${total > shown.length ? ` and ${formatCount(total - shown.length)} more` : ''}`]];
}

function notFoundSection(a: ContractStatusSummaryAlert): string[] {
  const total = a.statuses[NOT_FOUND] ?? 0;
  if (total === 0) return [];
  const more = total - a.not_found.length;
  return [
    '',
    'The API knows no deploy transaction for these contract ids: check them in the watch config, or wait for the deploys to be broadcast.',
    ...a.not_found.map((contractId) => `  ${id(contractId)}`),
    ...(more > 0 ? [`  and ${formatCount(more)} more`] : []),
  ];
}

export const contractStatusSummaryKind = {
  type: 'contract_status_summary',
  key,

  build: ({ alerts, meta }, network) => {
    const statuses: Record<string, number> = {};
    for (const alert of alerts) statuses[stateOf(alert)] = (statuses[stateOf(alert)] ?? 0) + 1;
    return {
      type: 'contract_status_summary',
      key: key(alerts.length, alerts[0]?.contract_id ?? '', alerts.at(-1)?.contract_id ?? ''),
      network,
      contracts: alerts.length,
      statuses,
      not_found: alerts
        .filter((a) => !a.found)
        .slice(0, NOT_FOUND_LISTED)
        .map((a) => a.contract_id),
      ...meta,
    };
  },

  subject: (a) => `${headline(a)}: ${tally(a)}`,

  email: (a) =>
    [
      `The watcher checked ${formatCount(a.contracts)} watched contracts on ${networkName(a.network)} for the first time. ` +
        "So many first sights are summed up in this one alert; from now on, each change of a contract's status alerts on its own.",
      '',
      fields(
        Object.entries(a.statuses)
          .sort(([, x], [, y]) => y - x)
          .map(([state, count]): Field => [phraseOf(state), formatCount(count)]),
      ),
      ...notFoundSection(a),
    ].join('\n'),

  sms: (a) => `${headline(a)}: ${tally(a)}`,

  terminal: (a) => [['Contracts', `${formatCount(a.contracts)} checked for the first time`], ['Statuses', tally(a)], ...notFoundRow(a)],
  link: () => null,
  attributes: () => ({}),

  sample: {
    type: 'contract_status_summary',
    key: key(2500, 'SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.stacking-dao-core-v1', 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.amm-pool-v2-01'),
    network: 'mainnet',
    contracts: 2500,
    statuses: { success: 2497, pending: 1, [NOT_FOUND]: 2 },
    not_found: ['SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.stacking-dao-core-v9', 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.amm-pool-v3-01'],
    rule: 'contracts',
    severity: 'warning',
  },
} satisfies WatcherKind<ContractStatusSummaryAlert, FirstSights>;
