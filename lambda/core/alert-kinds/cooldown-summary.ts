// `cooldown_summary`: what a rule's cooldown held back, in one alert when the cooldown ends. A rule with
// `cooldownMinutes` alerts once, then holds its further matches for that many minutes of block time
// (cooldowns-and-mutes.ts); the first block at or past the end sends this summary, keyed by the alert that started
// the cooldown and by what it held, so that a rescan after a crash finds it already sent (the claim protocol,
// delivery.ts). Raised by the cooldowns and mutes stage, not by a matcher, it is a chain alert all the same (the block that
// ended the cooldown), like window_threshold: a reorg that replaces that block and whose new chain does not
// end the same cooldown with the same matches held retracts it (and sends the new chain's, if any).
import { sha256 } from '@noble/hashes/sha256';
import { bytesToHex } from '@noble/hashes/utils';
import type { AlertBase } from './alert-base';
import { fields, id, networkName } from '../render/email-parts';
import { formatCount } from '../render/stx-amount';
import type { CooldownTally, HeldMatch } from '../stages/cooldown-mute-state';
import { carriedAttributes, type CarriedFields, type ChainKind } from './kind';
import type { Network } from '../domain';
import { SAMPLE_BLOCK_HASH, SAMPLE_TX_ID } from './samples';

/** Also what the alert that started the cooldown was filtered on (its address, asset, contract), so the same subscribers get it. */
export interface CooldownSummaryAlert extends AlertBase, CarriedFields {
  type: 'cooldown_summary';
  /** Null: a summary names no one transaction. */
  tx_id: null;
  /** The block whose time ended the cooldown (as `ended_at_height`): a reorg that replaces it rechecks the summary. */
  block_height: number;
  block_hash: string;
  cooldown_minutes: number;
  /** The key of the alert that went out and started the cooldown. */
  started_by: string;
  /** Matches held back during the cooldown. */
  held: number;
  /** The first of them (at most COOLDOWN_MUTE_LISTED), in chain order. */
  held_alerts: HeldMatch[];
  /** Block heights of the held matches. */
  from_height: number | null;
  to_height: number | null;
  /** The block whose time ended the cooldown. */
  ended_at_height: number;
}

/** What the summary is built from: the ended cooldown and the block that ended it. */
export interface EndedCooldown {
  tally: CooldownTally;
  endedAtHeight: number;
  endedInBlock: string;
}

/**
 * Named by the alert that started the cooldown and by what it held (the count and a digest of the matches it
 * lists): the same cooldown ended again after a crash, or re-mined as it was, is the same summary; after a
 * reorg that changed what it held it is another one, so the old one is retracted and the new one sent.
 */
function key(startedBy: string, held?: { count: number; keys: readonly string[] }): string {
  if (!held) return `cooldown_summary:${startedBy}`;
  const digest = bytesToHex(sha256(held.keys.join('\n'))).slice(0, 12);
  return `cooldown_summary:${startedBy}:${held.count}:${digest}`;
}

const count = (a: CooldownSummaryAlert) => `${formatCount(a.held)} more match${a.held === 1 ? '' : 'es'}`;

function blocks(a: CooldownSummaryAlert): string {
  if (a.from_height === null || a.to_height === null) return '';
  if (a.from_height === a.to_height) return ` in block ${formatCount(a.from_height)}`;
  return ` in blocks ${formatCount(a.from_height)}-${formatCount(a.to_height)}`;
}

const headline = (a: CooldownSummaryAlert) => `${count(a)} held by a ${a.cooldown_minutes}-min cooldown${blocks(a)}`;

function heldList(a: CooldownSummaryAlert): string[] {
  const more = a.held - a.held_alerts.length;
  return [
    ...a.held_alerts.map((h) => `  block ${h.block_height}: ${id(h.key)}`),
    ...(more > 0 ? [`  and ${formatCount(more)} more (recorded as held in the state)`] : []),
  ];
}

/** The one place a summary is written: from the ended cooldown and the block that ended it. */
export function cooldownSummaryOf({ tally, endedAtHeight, endedInBlock }: EndedCooldown, network: Network): CooldownSummaryAlert {
  return {
    type: 'cooldown_summary',
    key: key(tally.startedBy, { count: tally.held, keys: tally.first.map((h) => h.key) }),
    network,
    tx_id: null,
    block_height: endedAtHeight,
    block_hash: endedInBlock,
    cooldown_minutes: tally.minutes,
    started_by: tally.startedBy,
    held: tally.held,
    held_alerts: tally.first.map((h) => ({ ...h })),
    from_height: tally.fromHeight,
    to_height: tally.toHeight,
    ended_at_height: endedAtHeight,
    ...(tally.carried ?? {}),
    rule: tally.rule,
    severity: tally.severity,
  };
}

const carried = (a: CooldownSummaryAlert): CarriedFields => ({
  ...(a.recipient ? { recipient: a.recipient } : {}),
  ...(a.contract_id ? { contract_id: a.contract_id } : {}),
  ...(a.address ? { address: a.address } : {}),
  ...(a.asset_id ? { asset_id: a.asset_id } : {}),
});

export const cooldownSummaryKind = {
  type: 'cooldown_summary',
  key,

  chain: {
    reads: {},
    needsEvents: () => false,
    // Raised by the cooldowns and mutes stage (core/stages/cooldown-mute-stage.ts), after the block's matches: no matcher of its own.
    retraction: {
      label: 'cooldown summary',
      summary: (a) => `"${a.rule ?? 'rule'}": ${headline(a)}`,
      carried,
    },
  },

  subject: headline,
  email: (a) =>
    [
      `After alerting on ${networkName(a.network)}, this rule held its further matches for ${a.cooldown_minutes} minutes of block time ` +
        'rather than sending each one. This is what it held; none of them was sent on its own.',
      '',
      fields([
        ['Held', formatCount(a.held)],
        ['Cooldown', `${a.cooldown_minutes} min, started by ${id(a.started_by)}`],
        ['Blocks', a.from_height === null || a.to_height === null ? 'none' : `${a.from_height} to ${a.to_height}`],
        ['Ended at block', String(a.ended_at_height)],
      ]),
      '',
      'The first held matches:',
      ...heldList(a),
    ].join('\n'),
  sms: headline,
  terminal: (a) => [
    ['Held', `${count(a)}${blocks(a)}`],
    [
      'First',
      a.held_alerts
        .map((h) => (h.tx_id === null ? 'a balance read' : id(h.tx_id)))
        .slice(0, 3)
        .join(', ') || 'none',
    ],
  ],
  link: () => null,
  attributes: carriedAttributes,

  sample: {
    type: 'cooldown_summary',
    key: key(`ft_transfer:${SAMPLE_TX_ID}:3`),
    network: 'mainnet',
    tx_id: null,
    block_height: 123622,
    block_hash: SAMPLE_BLOCK_HASH,
    cooldown_minutes: 30,
    started_by: `ft_transfer:${SAMPLE_TX_ID}:3`,
    held: 40,
    held_alerts: [
      {
        key: 'ft_transfer:0x6f3c0dc5a7d4d47d1e8e1c4d4a3c1c0b9a8f7e6d5c4b3a291827364554637281:1',
        tx_id: '0x6f3c0dc5a7d4d47d1e8e1c4d4a3c1c0b9a8f7e6d5c4b3a291827364554637281',
        block_height: 123451,
      },
      {
        key: 'ft_transfer:0x7a1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0:0',
        tx_id: '0x7a1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
        block_height: 123455,
      },
    ],
    from_height: 123451,
    to_height: 123620,
    ended_at_height: 123622,
    address: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.sbtc-vault',
    asset_id: 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token',
    rule: 'sBTC leaving the vault',
    severity: 'critical',
  },
} satisfies ChainKind<CooldownSummaryAlert, Record<never, never>>;
