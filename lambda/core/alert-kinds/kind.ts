// What every alert kind must provide, in one place: a kind is one module that satisfies `AlertKind`, and the
// registry is typed so that a kind missing any part (a wording, its filter attributes, its retraction) does
// not compile. Nothing outside the kind modules branches on an alert's type.
// Generic over the alert shape, not the alert union: the union (alert.ts) is built from the kinds, so a kind
// that needed it would import itself.
import type { Block, Network, Transaction, TxEvents } from '../domain';
import type { AlertBase } from './alert-base';
import type { Reads } from '../rules/rule-list';

/** Any alert: its shared fields and a type. */
export type AnyAlert = AlertBase & { type: string };

/** What every chain alert has: a reorg that drops its block retracts it (retraction.ts). */
export type AnyChainAlert = AnyAlert & { tx_id: string | null; block_height: number; block_hash: string };

/**
 * The fields a retraction copies from the alert it voids, so that subscribers filtering on the original's
 * attributes get the retraction too. A kind filtered on something new adds an optional field here.
 */
export interface CarriedFields {
  /** The retracted transfer's recipient, so subscribers filtering on `address` see its retraction too. */
  recipient?: string;
  /** The retracted log's contract, so subscribers filtering on `contract_id` see its retraction too. */
  contract_id?: string;
  /** The retracted asset movement's watched principal, for subscribers filtering on `address`. */
  address?: string;
  /** The retracted asset movement's asset (`stx` or an asset id), for subscribers filtering on `asset_id`. */
  asset_id?: string;
}

/** One labelled value of an alert, as the email and the terminal show it. */
export type Field = readonly [label: string, value: string];

/**
 * The SNS message attributes kinds set beyond `type`, `network`, `rule` and `severity` (which every alert
 * carries), for subscription filter policies. infra/alert-message.ts takes its names from here, so that a
 * kind filtered on something new adds it here and nowhere else.
 */
export const KIND_ATTRIBUTES = {
  /** Alerts about a contract (each kind's module says which it sets). */
  contractId: 'contract_id',
  /** Alerts about an address: a token_transfer's recipient, an asset movement's watched principal. */
  address: 'address',
  /** Asset movements: `stx` or the token's asset id `ADDRESS.contract::token`. */
  assetId: 'asset_id',
} as const;

export type KindAttribute = (typeof KIND_ATTRIBUTES)[keyof typeof KIND_ATTRIBUTES];

/** A kind's filter attributes: name → value. An empty value is dropped (SNS rejects the whole message for one). */
export type FilterAttributes = Readonly<Partial<Record<KindAttribute, string>>>;

/**
 * The filter attributes of an alert about another one (a retraction, a cooldown's summary): what that alert
 * was filtered on, so that a filtered subscriber gets both.
 */
export function carriedAttributes(a: CarriedFields): FilterAttributes {
  return {
    ...(a.contract_id ? { contract_id: a.contract_id } : {}),
    ...(a.recipient ? { address: a.recipient } : {}),
    ...(a.address ? { address: a.address } : {}),
    ...(a.asset_id ? { asset_id: a.asset_id } : {}),
  };
}

/** Where a chain alert sits in its block: a block's alerts go out by transaction, then event. */
export interface ChainPosition {
  txIndex: number;
  /** -1 for an alert about the transaction itself, so it comes before that transaction's events. */
  eventIndex: number;
}

/** What a matcher sees: one block, the events fetched for it, and the compiled rules of the lists it reads. */
export interface BlockMatch<R> {
  block: Block;
  events: ReadonlyMap<string, TxEvents>;
  rules: R;
  network: Network;
}

export interface Matched<A extends AnyChainAlert> {
  alert: A;
  at: ChainPosition;
}

/** How an alert reads, in every form. Pure functions of the alert: a retry renders the same text. */
export interface Wording<A extends AnyAlert> {
  /** The subject without the `[stacks-watch]` prefix; cleaned to printable ASCII and cut to size afterwards. */
  subject(alert: A): string;
  /** The email body without the common footer. */
  email(alert: A): string;
  /** The SMS without the brand prefix; converted to GSM-7 and fitted to one message afterwards. */
  sms(alert: A): string;
  /** The few fields that matter at a terminal, under the subject line. */
  terminal(alert: A): readonly Field[];
  /** The explorer link ending the terminal block, or null when the alert names no transaction. */
  link(alert: A): string | null;
}

export interface KindCommon<A extends AnyAlert> extends Wording<A> {
  type: A['type'];
  /**
   * Builds the alert's key, the de-duplication identity across runs, retries and rescans. Each kind takes
   * what identifies it (a transaction, an event, a contract's change count).
   */
  key: (...parts: never) => string;
  /** Filter attributes beyond `type` and `network`. */
  attributes(alert: A): FilterAttributes;
  /** A realistic alert of this kind: the registry test renders it in every form. */
  sample: A;
}

/** What a retraction of a chain alert says about it, and carries of it for filtered subscribers. */
export interface RetractionPart<A extends AnyChainAlert> {
  /** Names the kind in a retraction: "the STX transfer it reported is no longer on the canonical chain". */
  label: string;
  /** The essentials of the alert, enough to read the retraction on its own. */
  summary(alert: A): string;
  /** The alert's fields a retraction copies, so that subscribers filtering on them see the retraction too. */
  carried(alert: A): CarriedFields;
}

/** A kind found in blocks: it has a matcher, and a reorg can retract it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ChainKind<A extends AnyChainAlert, R = any> extends KindCommon<A> {
  chain: {
    /** The rule lists it reads, by name (rule-lists.ts): `needsEvents` and `match` get their compiled rules only. */
    reads: Reads<R>;
    /**
     * Whether its rules make this kind's matcher need `tx`'s events (the scan fetches the union with what the
     * stages need: match/block-alerts.ts). A kind whose alerts a stage raises leaves it out: the stage says.
     */
    needsEvents?(tx: Transaction, rules: R): boolean;
    /**
     * Whether its rules make this kind need `tx`'s call arguments and result that the block's list left out
     * (the scan reads them beside the events, into TxEvents.call). Kinds that read no call leave it out.
     */
    needsCallDetails?(tx: Transaction, rules: R): boolean;
    /**
     * The block's alerts of this kind, each with its position; in any order (the scan sorts). A kind whose
     * alerts a stage raises (a window's crossing, a balance's, a cooldown's summary: core/stages/) has none.
     */
    match?(input: BlockMatch<R>): Matched<A>[];
    /**
     * What a window (`windows`, core/stages/window-stage.ts) adds up of one alert: `field` is the window's `sum`.
     * Kinds whose alerts carry no amount leave it out: their matches can only be counted.
     */
    summed?(alert: A, field: string): unknown;
    retraction: RetractionPart<A>;
  };
}

/** A kind raised by the watcher itself (a status check, a retraction, a deep reorg), not found in blocks. */
export interface WatcherKind<A extends AnyAlert, Input = never> extends KindCommon<A> {
  chain?: never;
  /** The one place this kind's alert is written, from what the watcher found (`network` is the watch config's). */
  build(input: Input, network: Network): A;
}
