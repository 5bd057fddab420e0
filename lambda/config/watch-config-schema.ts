// The watch config's shape in zod. Messages are written for the person editing watch.json: each says what
// the field must hold, since the path and the bad value are shown beside it.
// zod/mini (see ../zod-mini): schemas wrap (`z.optional(x)`) and checks attach (`.check(...)`) rather than chain.
import * as z from '../zod-mini';
import { ASSET_ACTIONS, type Network } from '../core/domain';
import { assetIdProblem, contractIdProblem, recipientProblem } from './stacks-principals';
import { conditionProblems } from '../core/clarity/conditions';
import { listRuleSchema, ruleMetaShape } from './rule-meta-schema';
import { SMS_PER_RUN_DEFAULT } from '../core/sms-budget';
import type { RuleMetaConfig } from '../core/rule-meta';
import type { ContractLogRule } from '../core/alert-kinds/contract-log-rules';
import type { ContractCallRule } from '../core/alert-kinds/contract-call-rules';
import type { TransferRule } from '../core/alert-kinds/transfer-rules';

export const NETWORKS = ['mainnet', 'testnet'] as const satisfies readonly Network[];

export const DEFAULTS = { startHeight: 'latest', confirmations: 0, maxBlocksPerRun: 500, smsPerRun: SMS_PER_RUN_DEFAULT } as const;

/** `is required: …` for a missing value, `must be …` for a wrong one. */
function needs(what: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? `is required: ${what}` : `must be ${what}`);
}

function wholeNumber(min: number, max: number) {
  const what = `a whole number from ${min} to ${max}`;
  const message = (issue: { input?: unknown }) =>
    typeof issue.input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(issue.input)
      ? `must be ${what}, written without quotes`
      : `must be ${what}`;
  return z.int({ error: message }).check(z.minimum(min, { error: message }), z.maximum(max, { error: message }));
}

/**
 * Free text ignored by the watcher: JSON has no comments, so a `$comment` key (the JSON Schema
 * convention) may explain the file or a rule.
 */
const comment = z.optional(
  z.union([z.string(), z.array(z.string())], { error: 'must be a string or a list of strings (it is a comment)' }),
);

function principal(problemOf: (text: string, network: Network | null) => string | null, network: Network | null, what: string) {
  return z.string({ error: needs(what) }).check(
    z.superRefine((text, ctx) => {
      const problem = problemOf(text, network);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  );
}

/**
 * Reports the second and later copies of an entry, each pointing at the first. It runs even when another
 * entry has the wrong type (zod would skip it then), so that every problem shows in one pass; `keyOf`
 * returns null for entries it cannot compare.
 */
function noDuplicates(keyOf: (item: unknown) => string | null, listName: string, what: string) {
  return (items: readonly unknown[], ctx: z.core.$RefinementCtx) => {
    const firstIndex = new Map<string, number>();
    items.forEach((item, index) => {
      const key = keyOf(item);
      if (key === null) return;
      const first = firstIndex.get(key);
      if (first === undefined) firstIndex.set(key, index);
      else ctx.addIssue({ code: 'custom', path: [index], message: `repeats ${listName}[${first}] (${what}); remove one` });
    });
  };
}

const evenWithBadEntries = { when: (payload: { value: unknown }) => Array.isArray(payload.value) };

const sameString = (item: unknown) => (typeof item === 'string' ? item : null);

/** JSON with object keys sorted, so that `{"a":1,"b":2}` and `{"b":2,"a":1}` compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Two rules are the same when everything but their comments is. */
function sameJson(item: unknown): string | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return null;
  const { $comment: _comment, ...rule } = item as Record<string, unknown>;
  return canonical(rule);
}

/** Two rules are the same when everything but their comments is: one contract may have several rules. */
function sameRule(item: unknown): string | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return null;
  const { $comment: _comment, ...rule } = item as Record<string, unknown>;
  return typeof rule.contractId === 'string' ? canonical(rule) : null;
}

/** `where` is checked by the condition language itself, which reports each mistake at its path. */
const where = z.optional(
  z.unknown().check(
    z.superRefine((value, ctx) => {
      for (const problem of conditionProblems(value)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    }),
  ),
);

/** A list of `item`, its duplicates reported by `noDuplicates`, `[]` when left out. */
function list<T extends z.ZodMiniType>(item: T, what: string, duplicates: ReturnType<typeof noDuplicates>) {
  const array = z.array(item, { error: `must be a list [...] of ${what} (it may be empty)` });
  return z._default(array.check(z.superRefine(duplicates, evenWithBadEntries)), []);
}

/** The config schema; `network` (when the file names a valid one) lets addresses be checked against it. */
export function watchConfigSchema(network: Network | null) {
  const contractId = principal(contractIdProblem, network, 'a contract id "ADDRESS.contract-name" in quotes');
  const recipient = principal(recipientProblem, network, 'a Stacks address in quotes');

  const logRule = z.strictObject(
    {
      $comment: comment,
      ...ruleMetaShape,
      contractId,
      contains: z.optional(
        z
          .string({ error: 'must be text to look for in the log value, in quotes (leave it out to match every log)' })
          .check(z.minLength(1, { error: 'must not be empty; leave "contains" out to match every log of the contract' })),
      ),
      where,
    },
    { error: 'must be an object like {"contractId": "ADDRESS.contract-name", "contains": "optional text", "name": "optional", "severity": "optional"}' },
  );

  const minAmountMessage = 'must be a whole number of base units (micro-STX for stx), 0 or more: digits in quotes, or a whole number';
  const transferRule = z.strictObject(
    {
      $comment: comment,
      ...ruleMetaShape,
      asset: principal(
        (text, net) => (text === 'stx' || text === '*' ? null : assetIdProblem(text, net)),
        network,
        '"stx", "*" (any asset) or an asset id "ADDRESS.contract::token" in quotes',
      ),
      to: z.optional(list(recipient, 'recipients to watch', noDuplicates(sameString, 'to', 'the same address'))),
      from: z.optional(list(recipient, 'senders to watch', noDuplicates(sameString, 'from', 'the same address'))),
      minAmount: z.optional(
        z.union([z.string().check(z.regex(/^\d+$/, { error: minAmountMessage })), z.int().check(z.minimum(0, { error: minAmountMessage }))], {
          error: minAmountMessage,
        }),
      ),
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
      decimals: z.optional(wholeNumber(0, 38)),
      symbol: z.optional(
        z
          .string({ error: 'must be the token\'s symbol in quotes, e.g. "sBTC"' })
          .check(z.regex(/^[\x21-\x7e]{1,20}$/, { error: 'must be 1 to 20 printable characters without spaces, e.g. "sBTC"' })),
      ),
    },
    {
      error:
        'must be an object like {"asset": "stx", "to": ["ADDRESS"], "from": ["ADDRESS"], "minAmount": "1000000", "actions": ["transfer"]}',
    },
  ).check(
    z.superRefine((rule, ctx) => {
      if ((rule.to ?? []).length === 0 && (rule.from ?? []).length === 0) {
        ctx.addIssue({ code: 'custom', message: 'watches nobody: list at least one address in "to" (recipients) or "from" (senders)' });
      }
    }),
  );

  const names = (what: string) =>
    z.optional(
      z.array(z.string().check(z.minLength(1, { error: `must not be empty` })), { error: `must be a list of ${what} in quotes` }).check(
        z.minLength(1, { error: `must not be empty; leave it out to match any` }),
      ),
    );
  const callRule = z.strictObject(
    {
      $comment: comment,
      ...ruleMetaShape,
      contractId,
      functions: names('function names'),
      from: z.optional(
        z.array(principal(recipientProblem, network, 'a Stacks address in quotes'), { error: 'must be a list of sender addresses in quotes' }).check(
          z.minLength(1, { error: 'must not be empty; leave it out to match any' }),
        ),
      ),
      status: z._default(z.enum(['success', 'failed', 'any'], { error: 'must be "success", "failed" (any abort) or "any"' }), 'any'),
    },
    { error: 'must be an object like {"contractId": "ADDRESS.contract-name", "functions": ["withdraw"], "status": "failed"}' },
  );

  const startHeightMessage = needs('"latest" or a block height (a whole number, 0 or more) to start scanning from');

  return z.strictObject(
    {
      $comment: comment,
      network: z.enum(NETWORKS, { error: needs('"mainnet" or "testnet"') }),
      contracts: list(
        contractId,
        'contract ids whose deployment status to watch',
        noDuplicates(sameString, 'contracts', 'the same contract'),
      ),
      addresses: list(
        recipient,
        'addresses whose incoming STX transfers to watch',
        noDuplicates(sameString, 'addresses', 'the same address'),
      ),
      contractsRule: listRuleSchema('contracts', comment),
      addressesRule: listRuleSchema('addresses', comment),
      contractLogs: list(
        logRule,
        'log rules {"contractId": ..., "contains": ...}',
        noDuplicates(sameRule, 'contractLogs', 'the same rule'),
      ),
      transfers: list(transferRule, 'transfer rules {"asset": ..., "to": [...], "from": [...]}', noDuplicates(sameJson, 'transfers', 'the same rule')),
      calls: list(callRule, 'call rules {"contractId": ..., "functions": [...], "status": ...}', noDuplicates(sameRule, 'calls', 'the same rule')),
      startHeight: z._default(
        z.union(
          [z.literal('latest'), z.int({ error: startHeightMessage }).check(z.minimum(0, { error: startHeightMessage }))],
          { error: startHeightMessage },
        ),
        DEFAULTS.startHeight,
      ),
      confirmations: z._default(wholeNumber(0, 100), DEFAULTS.confirmations),
      maxBlocksPerRun: z._default(wholeNumber(1, 10_000), DEFAULTS.maxBlocksPerRun),
      smsPerRun: z._default(wholeNumber(0, 100), DEFAULTS.smsPerRun),
    },
    { error: 'the watch config must be a JSON object {"network": ..., "contracts": [...], ...}' },
  );
}

export type WatchConfigSchema = ReturnType<typeof watchConfigSchema>;

/** The keys a config and each kind of rule may have, for "did you mean" hints on unknown ones. */
export function allowedKeys(schema: WatchConfigSchema): { top: string[]; rule: string[]; transfer: string[]; call: string[]; listRule: string[] } {
  return {
    top: Object.keys(schema.shape),
    rule: Object.keys(schema.shape.contractLogs.def.innerType.def.element.shape),
    transfer: Object.keys(schema.shape.transfers.def.innerType.def.element.shape),
    call: Object.keys(schema.shape.calls.def.innerType.def.element.shape),
    listRule: Object.keys(schema.shape.addressesRule.def.innerType.shape),
  };
}

export interface WatchConfig {
  network: Network;
  contracts: string[];
  addresses: string[];
  contractLogs: ContractLogRule[];
  transfers: TransferRule[];
  /** Rules on calls to contracts; absent or empty when none are watched. */
  calls?: ContractCallRule[];
  /** Name and severity of every `contracts` alert (the list holds bare ids). */
  contractsRule?: RuleMetaConfig;
  /** Name and severity of every `addresses` alert. */
  addressesRule?: RuleMetaConfig;
  /** Alert texts per run before the rest are summed up in one digest text (sms-budget.ts; default 5). */
  smsPerRun?: number;
  startHeight: number | 'latest';
  confirmations: number;
  maxBlocksPerRun: number;
}
