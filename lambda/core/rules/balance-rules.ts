// `balances`: an address's balance of STX (spendable: unlocked) or of a fungible token against a `below` and/or
// `above` threshold; one `balance_threshold` alert when it crosses, in the block where it crossed, and not
// again until it has gone back across. The balances themselves are kept by balance-tracker.ts.
import * as z from '../../zod-mini';
import { comment, list, noDuplicates, principal, recipientSchema, sameJson, wholeNumber } from '../watch-config/schema-parts';
import { keysOf, pickRuleMeta, type RuleMetaParts } from '../watch-config/rule-meta-schema';
import { assetIdProblem } from '../watch-config/stacks-principals';
import { amountOutput, amountSchema, checkAmounts, readAmounts } from '../watch-config/amount-fields';
import { asWritten } from '../watch-config/amounts';
import type { Network } from '../domain';
import { defaultRuleName, RuleMetaCompiler } from '../stages/rule-meta';
import type { CompiledBalanceRule } from '../stages/balance-tracker';
import type { RuleList } from './rule-list';
import { plural, ruleWords, summarised } from './rule-words';
import { formatStx } from '../render/stx-amount';
import { formatTokenAmount } from '../render/token-amount';

const AMOUNTS = ['below', 'above'] as const;
const amount = () => z.optional(amountSchema(0));

function ruleObject(network: Network | null, meta: RuleMetaParts) {
  return z.strictObject(
    {
      $comment: comment,
      ...meta.shape,
      address: recipientSchema(network),
      asset: principal(
        (text, net) =>
          text === 'stx'
            ? null
            : text.toLowerCase() === 'stx'
              ? 'means STX: write "stx" in lower case'
              : text === '*'
                ? 'must name one asset: "stx" or an asset id'
                : assetIdProblem(text, net),
        network,
        '"stx" or an asset id "ADDRESS.contract::token" in quotes',
      ),
      below: amount(),
      above: amount(),
      decimals: z.optional(wholeNumber(0, 38)),
      symbol: z.optional(
        z
          .string({ error: 'must be the token\'s symbol in quotes, e.g. "sBTC"' })
          .check(z.regex(/^[\x21-\x7e]{1,20}$/, { error: 'must be 1 to 20 printable characters without spaces, e.g. "sBTC"' })),
      ),
    },
    { error: 'must be an object like {"address": "SP…", "asset": "stx", "below": "50000000"}' },
  );
}

function ruleSchema(network: Network | null, meta: RuleMetaParts) {
  const rule = ruleObject(network, meta).check(
    z.superRefine((r, ctx) => {
      const { values } = readAmounts(r, AMOUNTS);
      if (r.below === undefined && r.above === undefined) {
        ctx.addIssue({ code: 'custom', message: 'has no threshold: give "below", "above" or both, e.g. "50 STX"' });
      } else if (values.below !== undefined && values.above !== undefined && BigInt(values.below) > BigInt(values.above)) {
        ctx.addIssue({
          code: 'custom',
          path: ['below'],
          message: `must not be more than "above" (${String(r.above)}): a balance cannot be under one and over the other`,
        });
      }
    }),
    checkAmounts(AMOUNTS),
  );
  return z.pipe(
    rule,
    z.transform(({ $comment: _note, below: _below, above: _above, decimals, symbol, address, asset, ...meta }) => {
      // In base units, kept as strings (balances can exceed 2^53), with the units they were written in.
      const { below, above, amountUnits, ...token } = amountOutput({ asset, below: _below, above: _above, decimals, symbol }, AMOUNTS);
      return {
        address,
        asset,
        ...(below === undefined ? {} : { below }),
        ...(above === undefined ? {} : { above }),
        ...(decimals === undefined ? {} : { decimals }),
        ...(symbol === undefined ? {} : { symbol }),
        ...token,
        ...(amountUnits === undefined ? {} : { amountUnits }),
        ...pickRuleMeta(meta),
      };
    }),
  );
}

/** A balance rule: see docs/rules-and-conditions.md, "Balance thresholds". */
export type BalanceRule = z.output<ReturnType<typeof ruleSchema>>;

/** The compiled `balances` rules: data only (the balances themselves are the balance stage's state, stages/balances.ts). */
export interface CompiledBalances {
  rules: readonly CompiledBalanceRule[];
}

function limits(rule: BalanceRule): string {
  return [rule.below === undefined ? '' : `below ${rule.below}`, rule.above === undefined ? '' : `above ${rule.above}`].filter(Boolean).join(' or ');
}

function compileRule(rule: BalanceRule, meta: RuleMetaCompiler): CompiledBalanceRule {
  const name = meta.of(rule, defaultRuleName('balances', `${rule.asset} of ${rule.address} ${limits(rule)}`));
  return {
    key: `${name.rule}|${rule.address}|${rule.asset}|${rule.below ?? ''}|${rule.above ?? ''}`,
    address: rule.address,
    asset: rule.asset,
    below: rule.below === undefined ? null : BigInt(rule.below),
    above: rule.above === undefined ? null : BigInt(rule.above),
    decimals: rule.decimals ?? null,
    symbol: rule.symbol ?? null,
    meta: name,
    fingerprint: `${rule.address}|${rule.asset}|${rule.below ?? ''}|${rule.above ?? ''}`,
  };
}

/** `50000000 base units = 50 STX`, or in the token's units when the rule gives its decimals. */
export function amountWords(rule: Pick<BalanceRule, 'asset' | 'decimals' | 'symbol'>, value: string): string {
  if (rule.asset === 'stx') return formatStx(value, 'short');
  return formatTokenAmount(value, rule.decimals ?? null, rule.symbol ?? null, rule.asset);
}

/**
 * `spendable STX of SP… below 50 STX`: a default name (above) as a message shows it. A token's threshold is in
 * base units there, which the name cannot scale: the alert's own fields say it in the token's units.
 */
function balanceNameWords(detail: string | null): string {
  const [, asset = '', address = '', limits = ''] = /^(\S+) of (\S+) ?(.*)$/.exec(detail ?? '') ?? [];
  if (asset !== 'stx') return `balance of ${asset} of ${address}`;
  return `spendable STX of ${address} ${limits.replace(/\d+/g, (units) => formatStx(units, 'short'))}`.trimEnd();
}

function ruleText(rule: BalanceRule): string {
  const what = rule.asset === 'stx' ? 'spendable STX' : rule.asset;
  const words = (field: 'below' | 'above', value: string) => asWritten(rule, field, value) ?? amountWords(rule, value);
  const sides = [rule.below === undefined ? '' : `below ${words('below', rule.below)}`, rule.above === undefined ? '' : `above ${words('above', rule.above)}`];
  return `${what} of ${rule.address} ${sides.filter(Boolean).join(' or ')}`;
}

const shape = (network: Network | null, meta: RuleMetaParts) => ({
  balances: list(
    ruleSchema(network, meta),
    'balance rules {"address": ..., "asset": "stx", "below": "50000000"}',
    noDuplicates(sameJson, 'balances', 'the same rule'),
  ),
});

export const balancesList = {
  name: 'balances',
  shape,
  entryKeys: keysOf((meta) => ruleObject(null, meta).shape),
  compile: ({ balances }, meta = new RuleMetaCompiler()): CompiledBalances => {
    return { rules: balances.map((rule) => compileRule(rule, meta)) };
  },
  describe: ({ balances }) =>
    balances.length === 0
      ? '- no balance rules'
      : [
          `- balances by ${plural(balances.length, 'balance rule')} (an alert when one crosses, read from the API only to start and reconcile):`,
          ...summarised(
            balances.map((r) => `    ${ruleText(r)}${ruleWords(r)}`),
            'rule',
          ),
        ].join('\n'),
  nameWords: balanceNameWords,
} satisfies RuleList<'balances', ReturnType<typeof shape>, CompiledBalances>;
