// `deep_reorg`: for the operator, a fork deeper than the remembered block window. Raised by the block scan.
import type { AlertBase } from './alert-base';
import { id, networkName } from '../render/email-parts';
import { formatCount } from '../render/stx-amount';
import type { WatcherKind } from './kind';
import { defaultRuleName, WATCHER_RULE } from '../stages/rule-meta';
import { SAMPLE_BLOCK_HASH } from './samples';

export interface DeepReorgAlert extends AlertBase {
  type: 'deep_reorg';
  cursor_height: number;
  cursor_hash: string;
  window: number;
}

/** The lowest height the watcher still remembered: alerts below it cannot be checked after a deep reorg. */
function windowFloor(alert: DeepReorgAlert): number {
  return Math.max(0, alert.cursor_height - alert.window + 1);
}

const key = (cursorHash: string, tipHash: string) => `deep_reorg:${cursorHash}:${tipHash}`;

/** What the scan knows when no remembered block is canonical any more. */
export interface DeepReorgFound {
  cursor: { height: number; hash: string };
  /** The new chain's block above the cursor (or the tip that replaced it). */
  newChainHash: string;
  /** The lowest height the watcher still remembered. */
  windowFloor: number;
}

export const deepReorgKind = {
  type: 'deep_reorg',
  key,

  build: ({ cursor, newChainHash, windowFloor }, network) => ({
    type: 'deep_reorg',
    key: key(cursor.hash, newChainHash),
    network,
    cursor_height: cursor.height,
    cursor_hash: cursor.hash,
    window: cursor.height - windowFloor + 1,
    rule: defaultRuleName(WATCHER_RULE, 'deep_reorg'),
    severity: 'critical',
  }),

  subject: (a) => `deep reorg below block ${formatCount(windowFloor(a))}: older alerts unverified, action needed`,

  email(a) {
    const floor = formatCount(windowFloor(a));
    const top = formatCount(a.cursor_height);
    return [
      `Operator action needed: a chain reorganization on ${networkName(a.network)} went deeper than stacks-watch can check.`,
      '',
      `The block at the watcher's cursor (height ${top}, hash ${id(a.cursor_hash)}) is no longer on the ` +
        `canonical chain, and neither is any of the ${formatCount(a.window)} recent blocks the watcher remembers ` +
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
  },

  sms: (a) => `DEEP REORG: fork below block ${windowFloor(a)}, deeper than the watcher can check. Alerts for older blocks may be void; see email.`,

  terminal: (a) => [
    ['Cursor', `${formatCount(a.cursor_height)} (hash ${id(a.cursor_hash)}), no longer canonical`],
    ['Unverified', `alerts for blocks below ${formatCount(windowFloor(a))}`],
  ],
  // No one transaction to show: the fork is about blocks.
  link: () => null,

  attributes: () => ({}),

  sample: {
    type: 'deep_reorg',
    key: key(SAMPLE_BLOCK_HASH, '0x0c4b7e2f59c1c3aa1c1dcdc0a3a2f2f3a5a9d1c4ab1e9f0f0a4f3b2b8c6d7e8f'),
    network: 'mainnet',
    cursor_height: 182345,
    cursor_hash: SAMPLE_BLOCK_HASH,
    window: 1000,
    rule: 'watcher:deep_reorg',
    severity: 'critical',
  },
} satisfies WatcherKind<DeepReorgAlert, DeepReorgFound>;
