// What the kinds reporting asset movements share, once: the rules they read (`addresses`, `transfers`; which
// side of a movement is tracked and under which rule is transfer-predicate.ts), which transactions the event
// kinds (stx_transfer, ft_transfer, nft_transfer) need events for, the walk over a block's asset events, how
// a token's amounts read, and how a movement reads for the watched principal.
import type { AssetEvent, Block, ContractLogEvent, Transaction, TxEvents } from '../domain';
import { decodeClarityOrNull } from '../clarity/decode';
import { shortPrincipal } from '../render/chain-text';
import { id, type Row } from '../render/email-parts';
import { sanitizeUntrusted } from '../render/untrusted-text';
import type { RuleMeta } from '../stages/rule-meta';
import { addressesList } from '../rules/address-rules';
import { transfersList } from '../rules/transfer-rules';
import { readMemo } from '../rules/memo-filter';
import { lazy, trackedSide, type AssetRules, type Direction, type Tracked } from '../rules/transfer-predicate';
import { hasEventsBeyondList, isOwnTransferEvent } from './listed-events';

export type { AssetRules } from '../rules/transfer-predicate';

/** What the STX kinds read (`token_transfer`, `stx_transfer`). */
export const stxReads = { addresses: addressesList, transfers: transfersList };
/** What the token kinds read (`ft_transfer`, `nft_transfer`). */
export const tokenReads = { transfers: transfersList };

/** Whether any asset movement can alert: STX to `addresses`, or a `transfers` rule. */
function watchesAssets(rules: AssetRules): boolean {
  return (rules.addresses?.principals.size ?? 0) > 0 || rules.transfers.size > 0;
}

/** A failed transaction's events were rolled back (and are never returned), so they are not fetched. */
export function needsAssetEvents(tx: Transaction, rules: AssetRules): boolean {
  return watchesAssets(rules) && tx.txStatus === 'success' && hasEventsBeyondList(tx);
}

/** The fields every asset alert has, from its block, transaction, event and watched side. */
export interface AssetAlertBase {
  tx_id: string;
  block_height: number;
  block_hash: string;
  /** Unix seconds of the block. */
  block_time: number;
  event_index: number;
  action: AssetEvent['action'];
  /** null for a mint. */
  sender: string | null;
  /** null for a burn. */
  recipient: string | null;
  /** The watched principal the alert is about (the recipient, or the sender of an outflow or burn). */
  address: string;
  direction: Direction;
}

export interface FoundMove<E extends AssetEvent> {
  tx: Transaction;
  txEvents: TxEvents;
  event: E;
  tracked: Tracked;
  /** The movement's memo as hex (an STX event's own, or the buffer printed right after it), null when none. */
  memoHex: string | null;
  /** The alert's common fields, with the rule the movement alerts under (rule-meta.ts). */
  base: AssetAlertBase & RuleMeta;
}

/** Every event of the wanted asset class in the block's successful transactions that a rule watches (a native transfer's own aside). */
export function watchedMoves<E extends AssetEvent>(block: Block, events: ReadonlyMap<string, TxEvents>, rules: AssetRules, asset: E['asset']): FoundMove<E>[] {
  if (!watchesAssets(rules)) return [];
  const found: FoundMove<E>[] = [];
  for (const tx of block.transactions) {
    if (tx.txStatus !== 'success') continue;
    const txEvents = events.get(tx.txId);
    if (!txEvents) continue;
    for (const event of txEvents.assets) {
      if (event.asset !== asset || isOwnTransferEvent(tx, event)) continue;
      const memoHex = lazy(() => eventMemo(tx, txEvents, event));
      const tracked = trackedSide(rules, {
        asset: event.asset === 'stx' ? 'stx' : event.assetId,
        action: event.action,
        sender: event.sender,
        recipient: event.recipient,
        amount: event.asset === 'nft' ? null : event.amount,
        memo: lazy(() => readMemo(memoHex())),
      });
      if (!tracked) continue;
      found.push({
        tx,
        txEvents,
        event: event as E,
        tracked,
        memoHex: memoHex(),
        base: {
          tx_id: tx.txId,
          block_height: block.header.height,
          block_hash: block.header.hash,
          block_time: block.header.time,
          event_index: event.eventIndex,
          action: event.action,
          sender: event.sender,
          recipient: event.recipient,
          address: tracked.address,
          direction: tracked.direction,
          ...tracked.meta,
        },
      });
    }
  }
  return found;
}

/**
 * The memo of a movement: an STX event's own (`stx-transfer-memo?`), else the buffer the called contract
 * printed right after it (send-many-memo, SIP-010 `transfer`'s memo argument); an NFT movement has none.
 */
function eventMemo(tx: Transaction, txEvents: TxEvents, event: AssetEvent): string | null {
  if (event.asset === 'nft') return null;
  return (event.asset === 'stx' ? event.memo : null) ?? pairedMemo(tx, txEvents.logs, event.eventIndex);
}

/** How a token's amounts read, from the first rule on its asset id that says (null fields when none does). */
export function tokenDisplay(rules: Pick<AssetRules, 'transfers'>, assetId: string): { decimals: number | null; symbol: string | null } {
  const list = rules.transfers.get(assetId) ?? [];
  return {
    decimals: list.find((rule) => rule.decimals !== undefined)?.decimals ?? null,
    symbol: list.find((rule) => rule.symbol !== undefined)?.symbol ?? null,
  };
}

/**
 * The memo of an STX event without one of its own: a buffer printed by the called contract right after it
 * (event_index + 1), the send-many-memo pattern, paired the way the API's own inbound-transfer feed pairs it.
 */
export function pairedMemo(tx: Transaction, logs: readonly ContractLogEvent[], eventIndex: number): string | null {
  const next = logs.find((log) => log.eventIndex === eventIndex + 1);
  if (!next || next.contractId !== tx.contractId || next.topic !== 'print') return null;
  return clarityBufferHex(next.valueHex);
}

/** The bytes of a serialized Clarity buffer, or null for any other value (or none). */
export function clarityBufferHex(valueHex: string): string | null {
  const value = decodeClarityOrNull(valueHex);
  return value?.type === 'buffer' ? value.hex : null;
}

const MARKER = '...';

const DIRECTIONS: ReadonlySet<string> = new Set<Direction>(['received', 'sent', 'minted', 'burned']);

/** The direction as stored, or `moved` when a stored alert says something else (alerts are read back from state). */
function direction(a: Pick<AssetAlertBase, 'direction'>): Direction | 'moved' {
  return DIRECTIONS.has(a.direction) ? a.direction : 'moved';
}

/** The action as stored, cleaned: it is shown as read back from state. */
export function actionText(a: Pick<AssetAlertBase, 'action'>): string {
  return sanitizeUntrusted(a.action, 10);
}

/** `SP2C...YZR received`: the watched address and direction, first in a subject and an SMS. */
export function whoMoved(a: Pick<AssetAlertBase, 'address' | 'direction'>): string {
  return `${shortPrincipal(a.address, MARKER)} ${direction(a)}`;
}

/** `from SP3K...BR9` or `to SP2C...YZR`: the other side of the movement, when it has one. */
export function counterparty(a: Pick<AssetAlertBase, 'address' | 'sender' | 'recipient' | 'direction'>): string {
  if (direction(a) === 'received' || direction(a) === 'minted') return a.sender ? `from ${shortPrincipal(a.sender, MARKER)}` : '';
  return a.recipient ? `to ${shortPrincipal(a.recipient, MARKER)}` : '';
}

/** The headline's verb phrase: "received", "sent", "had minted to it", "burned". */
export function headline(a: Pick<AssetAlertBase, 'direction'>, what: string): string {
  return {
    received: `A watched address received ${what}`,
    sent: `A watched address sent ${what}`,
    minted: `${what[0]!.toUpperCase()}${what.slice(1)} minted to a watched address`,
    burned: `A watched address burned ${what}`,
    moved: `${what[0]!.toUpperCase()}${what.slice(1)} moved to or from a watched address`,
  }[direction(a)];
}

export const orNone = (value: string | null, none: string) => value ?? none;

/** The sender and recipient rows of a movement, in the email and at a terminal: a mint has no sender, a burn no recipient. */
export function sideRows(a: { sender: string | null; recipient: string | null }): Row[] {
  return [
    ['From', a.sender === null ? 'none (minted)' : id(a.sender)],
    ['To', a.recipient === null ? 'none (burned)' : id(a.recipient)],
  ];
}
