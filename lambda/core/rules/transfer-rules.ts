// `transfers`: rules on asset movements (STX, fungible and non-fungible tokens) to or from watched
// principals, with thresholds and actions. Read by the four kinds that report movements (token_transfer,
// stx_transfer, ft_transfer, nft_transfer) through asset-moves.ts.
import * as z from '../../zod-mini';
import { comment, evenWithBadEntries, list, noDuplicates, principal, recipientSchema, sameJson, sameString, wholeNumber } from '../watch-config/schema-parts';
import { keysOf, pickRuleMeta, type RuleMetaParts } from '../watch-config/rule-meta-schema';
import { assetIdProblem } from '../watch-config/stacks-principals';
import { amountOutput, amountSchema, checkAmounts } from '../watch-config/amount-fields';
import { asWritten } from '../watch-config/amounts';
import { ASSET_ACTIONS, type AssetAction, type Network } from '../domain';
import { defaultRuleName, RuleMetaCompiler, type RuleMeta } from '../stages/rule-meta';
import { groupBy, type RuleList } from './rule-list';
import { assetWords, plural, principalsWords, ruleWords, someOf, summarised } from './rule-words';
import { formatStx } from '../render/stx-amount';
import { formatTokenAmount } from '../render/token-amount';
import { compileMemo, memoFilterSchema, memoWords, type CompiledMemo } from './memo-filter';

const AMOUNTS = ['minAmount'] as const;

function ruleObject(network: Network | null, meta: RuleMetaParts) {
  const recipient = recipientSchema(network);
  return z.strictObject(
    {
      $comment: comment,
      ...meta.shape,
      asset: principal(
        (text, net) =>
          text === 'stx' || text === '*' ? null : text.toLowerCase() === 'stx' ? 'means STX: write "stx" in lower case' : assetIdProblem(text, net),
        network,
        '"stx", "*" (any asset) or an asset id "ADDRESS.contract::token" in quotes',
      ),
      to: z.optional(list(recipient, 'recipients to watch', noDuplicates(sameString, 'to', 'the same address'))),
      from: z.optional(list(recipient, 'senders to watch', noDuplicates(sameString, 'from', 'the same address'))),
      minAmount: z.optional(amountSchema(0)),
      actions: z.optional(
        z
          .array(z.enum(ASSET_ACTIONS, { error: 'must be "transfer", "mint" or "burn"' }), {
            error: 'must be a list of "transfer", "mint" and "burn" (leave it out for all three)',
          })
          .check(
            z.minLength(1, { error: 'must not be empty; leave "actions" out for all three' }),
            z.superRefine(noDuplicates(sameString, 'actions', 'the same action'), evenWithBadEntries),
          ),
      ),
      memo: z.optional(memoFilterSchema),
      decimals: z.optional(wholeNumber(0, 38)),
      pending: z.optional(z.boolean({ error: 'must be true (alert when a matching STX transfer is waiting in the mempool) or false' })),
      symbol: z.optional(
        z
          .string({ error: 'must be the token\'s symbol in quotes, e.g. "sBTC"' })
          .check(z.regex(/^[\x21-\x7e]{1,20}$/, { error: 'must be 1 to 20 printable characters without spaces, e.g. "sBTC"' })),
      ),
    },
    {
      error: 'must be an object like {"asset": "stx", "to": ["ADDRESS"], "from": ["ADDRESS"], "minAmount": "1000000", "actions": ["transfer"]}',
    },
  );
}

function ruleSchema(network: Network | null, meta: RuleMetaParts) {
  const rule = ruleObject(network, meta).check(
    z.superRefine((r, ctx) => {
      if ((r.to ?? []).length === 0 && (r.from ?? []).length === 0) {
        ctx.addIssue({ code: 'custom', message: 'watches nobody: list at least one address in "to" (recipients) or "from" (senders)' });
      }
      if (r.pending === true && r.asset !== 'stx' && r.asset !== '*') {
        ctx.addIssue({ code: 'custom', message: '"pending" watches native STX transfers waiting in the mempool: it needs "asset": "stx" or "*"' });
      }
    }),
    checkAmounts(AMOUNTS),
  );
  return z.pipe(
    rule,
    z.transform(({ $comment: _note, minAmount, actions, memo, decimals, symbol, to, from, asset, pending, ...meta }) => {
      // In base units, kept as a string (amounts can exceed 2^53), with the unit it was written in.
      const { minAmount: base, amountUnits, ...token } = amountOutput({ asset, minAmount, decimals, symbol }, AMOUNTS);
      return {
        asset,
        to: to ?? [],
        from: from ?? [],
        ...(base === undefined ? {} : { minAmount: base }),
        actions: actions ?? ([...ASSET_ACTIONS] as AssetAction[]),
        ...(memo === undefined ? {} : { memo }),
        ...(decimals === undefined ? {} : { decimals }),
        ...(symbol === undefined ? {} : { symbol }),
        ...token,
        ...(amountUnits === undefined ? {} : { amountUnits }),
        ...(pending === true ? { pending } : {}),
        ...pickRuleMeta(meta),
      };
    }),
  );
}

/** A rule on asset movements: see docs/watch-config.md, "transfers". */
export type TransferRule = z.output<ReturnType<typeof ruleSchema>>;

/** A transfer rule with its threshold as a bigint: amounts can exceed 2^53. */
export interface CompiledTransferRule {
  to: ReadonlySet<string>;
  from: ReadonlySet<string>;
  minAmount: bigint | null;
  actions: ReadonlySet<AssetAction>;
  /** The rule's memo condition; null: any memo or none. */
  memo: CompiledMemo | null;
  decimals?: number;
  symbol?: string;
  /** Also alerts a native STX transfer it matches while it waits in the mempool (pending_transfer). */
  pending: boolean;
  meta: RuleMeta;
  /** Position in the config's `transfers` list: among equally severe rules, the first one names the alert. */
  index: number;
}

/** asset (`stx`, an asset id, or `*`) → its transfer rules, in config order. */
export type CompiledTransfers = ReadonlyMap<string, readonly CompiledTransferRule[]>;

/** `transfers:stx to SP…A,SP…B from SP…C`. */
export function defaultTransferRuleName(rule: TransferRule): string {
  const to = rule.to.length > 0 ? ` to ${rule.to.join(',')}` : '';
  const from = rule.from.length > 0 ? ` from ${rule.from.join(',')}` : '';
  const memo = rule.memo === undefined ? '' : ` ${memoWords(rule.memo)}`;
  return defaultRuleName('transfers', `${rule.asset}${to}${from}${memo}`);
}

/** `STX transfers to SP…A, SP…B, SP…C and 97 more`: a default name (above) as a message shows it. */
function transferNameWords(detail: string | null): string {
  const [, asset = '*', to, from, memo] = /^(\S+)(?: to (\S+))?(?: from (\S+))?(?: (.*))?$/.exec(detail ?? '') ?? [];
  const parts = [`${assetWords(asset)} transfers`, to && `to ${principalsWords(to)}`, from && `from ${principalsWords(from)}`, memo];
  return parts.filter(Boolean).join(' ');
}

function compileRule(rule: TransferRule, index: number, meta: RuleMetaCompiler): CompiledTransferRule {
  return {
    to: new Set(rule.to),
    from: new Set(rule.from),
    minAmount: rule.minAmount === undefined ? null : BigInt(rule.minAmount),
    actions: new Set(rule.actions),
    memo: rule.memo === undefined ? null : compileMemo(rule.memo),
    ...(rule.decimals === undefined ? {} : { decimals: rule.decimals }),
    ...(rule.symbol === undefined ? {} : { symbol: rule.symbol }),
    pending: rule.pending === true,
    meta: meta.of(rule, defaultTransferRuleName(rule)),
    index,
  };
}

/** `stx to SP…, from SP… (at least 100 base units; transfer, burn)`. */
function ruleText(rule: TransferRule): string {
  const asset = rule.asset === '*' ? 'any asset' : rule.asset;
  const sides = [rule.to.length > 0 ? `to ${someOf(rule.to)}` : '', rule.from.length > 0 ? `from ${someOf(rule.from)}` : ''].filter(Boolean);
  const limits = [
    rule.minAmount === undefined ? '' : `at least ${minAmountWords(rule, rule.minAmount)}`,
    rule.memo === undefined ? '' : memoWords(rule.memo),
    rule.actions.join(', '),
    rule.pending ? 'and while waiting in the mempool' : '',
  ].filter(Boolean);
  return `${asset} ${sides.join(', ')} (${limits.join('; ')})`;
}

/** `100 base units = 0.0001 STX`: the threshold as written, and in the asset's units when they are known. */
function minAmountWords(rule: TransferRule, minAmount: string): string {
  const written = asWritten(rule, 'minAmount', minAmount);
  if (written !== null) return written;
  const base = `${minAmount} base units`;
  if (rule.asset === 'stx') return `${base} = ${formatStx(minAmount, 'short')}`;
  if (rule.asset === '*') return `${base} (= ${formatStx(minAmount, 'short')} when the asset is STX)`;
  if (rule.decimals === undefined) return base;
  return `${base} = ${formatTokenAmount(minAmount, rule.decimals, rule.symbol ?? null, rule.asset)}`;
}

const shape = (network: Network | null, meta: RuleMetaParts) => ({
  transfers: list(ruleSchema(network, meta), 'transfer rules {"asset": ..., "to": [...], "from": [...]}', noDuplicates(sameJson, 'transfers', 'the same rule')),
});

export const transfersList = {
  name: 'transfers',
  shape,
  entryKeys: keysOf((meta) => ruleObject(null, meta).shape),
  windowSum: 'amount',
  compile: ({ transfers }, meta = new RuleMetaCompiler()): CompiledTransfers =>
    new Map(
      [...groupBy(transfers, (rule) => rule.asset)].map(
        ([asset, rules]) => [asset, rules.map((rule) => compileRule(rule, transfers.indexOf(rule), meta))] as const,
      ),
    ),
  describe: ({ transfers }) =>
    transfers.length === 0
      ? '- no transfer rules'
      : [
          `- asset movements by ${plural(transfers.length, 'transfer rule')}:`,
          ...summarised(
            transfers.map((r) => `    ${ruleText(r)}${ruleWords(r)}`),
            'rule',
          ),
        ].join('\n'),
  nameWords: transferNameWords,
} satisfies RuleList<'transfers', ReturnType<typeof shape>, CompiledTransfers>;
