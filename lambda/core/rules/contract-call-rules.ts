// `calls`: rules on calls to watched contracts, filtered by function, sender and outcome. Read by contract-call.ts.
import * as z from '../../zod-mini';
import { comment, contractIdSchema, list, noDuplicates, recipientSchema, sameRule } from '../watch-config/schema-parts';
import { keysOf, pickRuleMeta, type RuleMetaParts } from '../watch-config/rule-meta-schema';
import { defaultRuleName, RuleMetaCompiler, type RuleMeta } from '../stages/rule-meta';
import type { Network } from '../domain';
import { groupBy, type RuleList } from './rule-list';
import { plural, principalsWords, ruleWords, summarised } from './rule-words';

const CALL_STATUSES = ['success', 'failed', 'any'] as const;
/** Which transaction outcomes a `calls` rule alerts on: `failed` is any abort. */
export type CallStatusFilter = (typeof CALL_STATUSES)[number];

function ruleSchema(network: Network | null, meta: RuleMetaParts) {
  const names = (what: string) =>
    z.optional(
      z
        .array(z.string().check(z.minLength(1, { error: `must not be empty` })), { error: `must be a list of ${what} in quotes` })
        .check(z.minLength(1, { error: `must not be empty; leave it out to match any` })),
    );
  const rule = z.strictObject(
    {
      $comment: comment,
      ...meta.shape,
      contractId: contractIdSchema(network),
      functions: names('function names'),
      from: z.optional(
        z
          .array(recipientSchema(network), { error: 'must be a list of sender addresses in quotes' })
          .check(z.minLength(1, { error: 'must not be empty; leave it out to match any' })),
      ),
      status: z._default(z.enum(CALL_STATUSES, { error: 'must be "success", "failed" (any abort) or "any"' }), 'any'),
      pending: z.optional(z.boolean({ error: 'must be true (alert when a matching call is waiting in the mempool) or false' })),
    },
    { error: 'must be an object like {"contractId": "ADDRESS.contract-name", "functions": ["withdraw"], "status": "failed"}' },
  );
  return z.pipe(
    rule,
    z.transform(({ contractId, functions, from, status, pending, ...meta }) => ({
      contractId,
      ...(functions === undefined ? {} : { functions }),
      ...(from === undefined ? {} : { from }),
      status,
      ...(pending === true ? { pending } : {}),
      ...pickRuleMeta(meta),
    })),
  );
}

export type ContractCallRule = z.output<ReturnType<typeof ruleSchema>>;

export interface CompiledCallRule extends ContractCallRule {
  meta: RuleMeta;
}

/** contract id → the rules on calls to it, in config order. */
export type CompiledCallRules = ReadonlyMap<string, readonly CompiledCallRule[]>;

/** `calls:SP….vault withdraw,deposit failed`. */
export function defaultCallRuleName(rule: ContractCallRule): string {
  const functions = rule.functions ? ` ${rule.functions.join(',')}` : '';
  const from = rule.from ? ` from ${rule.from.join(',')}` : '';
  const status = rule.status === 'any' ? '' : ` ${rule.status}`;
  return defaultRuleName('calls', `${rule.contractId}${functions}${from}${status}`);
}

/** `failed calls to SP….vault (withdraw, deposit) from SP…`: a default name (above) as a message shows it. */
function callNameWords(detail: string | null): string {
  const words = (detail ?? '').split(' ');
  const contractId = words.shift() ?? '';
  const status = words.at(-1) === 'failed' || words.at(-1) === 'success' ? words.pop() : undefined;
  const from = words.at(-2) === 'from' ? words.splice(-2)[1] : undefined;
  const functions = words[0];
  return [
    `${status === 'failed' ? 'failed calls' : status === 'success' ? 'successful calls' : 'calls'} to ${contractId}`,
    functions && `(${functions.split(',').join(', ')})`,
    from && `from ${principalsWords(from)}`,
  ]
    .filter(Boolean)
    .join(' ');
}

const outcomes: Record<CallStatusFilter, string> = { any: 'every outcome', failed: 'failed calls', success: 'successful calls' };

const shape = (network: Network | null, meta: RuleMetaParts) => ({
  calls: list(ruleSchema(network, meta), 'call rules {"contractId": ..., "functions": [...], "status": ...}', noDuplicates(sameRule, 'calls', 'the same rule')),
});

export const callsList = {
  name: 'calls',
  shape,
  entryKeys: keysOf((meta) => ruleSchema(null, meta).def.in.shape),
  windowSum: null,
  compile: ({ calls }, meta = new RuleMetaCompiler()): CompiledCallRules =>
    groupBy(
      calls.map((rule): CompiledCallRule => ({ ...rule, meta: meta.of(rule, defaultCallRuleName(rule)) })),
      (rule) => rule.contractId,
    ),
  // Said only when there are some: most configs have none.
  describe: ({ calls }) =>
    calls.length === 0
      ? null
      : [
          `- calls to contracts, ${plural(calls.length, 'rule')}:`,
          ...summarised(
            calls.map(
              (r) =>
                `    ${r.contractId} (${outcomes[r.status]}` +
                `${r.functions ? `, functions ${r.functions.join(', ')}` : ''}${r.from ? `, from ${r.from.join(', ')}` : ''})` +
                `${r.pending ? ', and while waiting in the mempool' : ''}${ruleWords(r)}`,
            ),
            'rule',
          ),
        ].join('\n'),
  nameWords: callNameWords,
} satisfies RuleList<'calls', ReturnType<typeof shape>, CompiledCallRules>;
