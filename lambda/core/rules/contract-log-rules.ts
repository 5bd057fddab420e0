// `contractLogs`: rules on the logs watched contracts print, each with an optional `contains` and typed
// `where` conditions (clarity/conditions.ts). Read by contract-log.ts.
import * as z from '../../zod-mini';
import { comment, contractIdSchema, list, noDuplicates, sameRule, wholeNumber } from '../watch-config/schema-parts';
import { logUnits } from '../clarity/condition-amounts';
import { keysOf, pickRuleMeta, type RuleMetaParts } from '../watch-config/rule-meta-schema';
import { compileWhere, conditionProblems, type Condition, type WhereSpec } from '../clarity/conditions';
import { whereWords } from '../clarity/condition-words';
import { defaultRuleName, RuleMetaCompiler, type RuleMeta } from '../stages/rule-meta';
import type { Network } from '../domain';
import { groupBy, type RuleList } from './rule-list';
import { plural, ruleWords, summarised } from './rule-words';

/** `where` is checked by the condition language itself, which reports each mistake at its path. */
const where = z.optional(
  z.unknown().check(
    z.superRefine((value, ctx) => {
      for (const problem of conditionProblems(value)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    }),
  ),
);

const symbolSchema = z
  .string({ error: 'must be the token\'s symbol in quotes, e.g. "sBTC": the unit an amount in "where" may name' })
  .check(z.regex(/^[\x21-\x7e]{1,20}$/, { error: 'must be 1 to 20 printable characters without spaces, e.g. "sBTC"' }));

function ruleSchema(network: Network | null, meta: RuleMetaParts) {
  const rule = z.strictObject(
    {
      $comment: comment,
      ...meta.shape,
      contractId: contractIdSchema(network),
      contains: z.optional(
        z
          .string({ error: 'must be text to look for in the log value, in quotes (leave it out to match every log)' })
          .check(z.minLength(1, { error: 'must not be empty; leave "contains" out to match every log of the contract' })),
      ),
      where,
      decimals: z.optional(wholeNumber(0, 38)),
      symbol: z.optional(symbolSchema),
    },
    { error: 'must be an object like {"contractId": "ADDRESS.contract-name", "contains": "optional text", "name": "optional", "severity": "optional"}' },
  );
  return z.pipe(
    rule.check(
      // The units an amount in `where` names, known only beside the rule's own token (its decimals and symbol).
      z.superRefine((r, ctx) => {
        if ((r.decimals === undefined) !== (r.symbol === undefined)) {
          ctx.addIssue({
            code: 'custom',
            path: [r.decimals === undefined ? 'decimals' : 'symbol'],
            message: 'goes with "decimals" and "symbol" both: the token unit an amount in "where" names, and how many decimals it has',
          });
        }
        if (r.where === undefined || conditionProblems(r.where).length > 0) return;
        for (const problem of conditionProblems(r.where, [], logUnits(r)))
          ctx.addIssue({ code: 'custom', path: ['where', ...problem.path], message: problem.message });
      }),
    ),
    z.transform(({ contractId, contains, where: spec, decimals, symbol, ...meta }) => ({
      contractId,
      ...(contains === undefined ? {} : { contains }),
      ...(spec === undefined ? {} : { where: spec as WhereSpec }),
      ...(decimals === undefined ? {} : { decimals }),
      ...(symbol === undefined ? {} : { symbol }),
      ...pickRuleMeta(meta),
    })),
  );
}

export type ContractLogRule = z.output<ReturnType<typeof ruleSchema>>;

/** A log rule with its `where` compiled once, not on every log. */
export interface CompiledLogRule extends ContractLogRule {
  condition?: Condition;
  meta: RuleMeta;
}

/** contract id → the rules on its logs, in config order (several rules, each with its own filters, may watch one contract). */
export type CompiledLogRules = ReadonlyMap<string, readonly CompiledLogRule[]>;

/** `contractLogs:SP….token`, with ` contains "mint"` and ` where {...}` when the rule has them. */
export function defaultLogRuleName(rule: ContractLogRule): string {
  const contains = rule.contains === undefined ? '' : ` contains ${JSON.stringify(rule.contains)}`;
  const whereText = rule.where === undefined ? '' : ` where ${JSON.stringify(rule.where)}`;
  return defaultRuleName('contractLogs', `${rule.contractId}${contains}${whereText}`);
}

/** `logs of SP….vault containing "mint" where event is "deposit"`: a default name (above) as a message shows it. */
function logNameWords(detail: string | null): string {
  const [, contractId, contains, where] = /^(\S+)(?: contains ("(?:[^"\\]|\\.)*"))?(?: where (\{.*\}))?$/.exec(detail ?? '') ?? [];
  if (contractId === undefined) return `logs of ${detail ?? 'watched contracts'}`;
  let condition: string | undefined;
  try {
    condition = where === undefined ? undefined : `where ${whereWords(JSON.parse(where) as WhereSpec)}`;
  } catch {
    condition = `where ${where}`;
  }
  return [`logs of ${contractId}`, contains && `containing ${contains}`, condition].filter(Boolean).join(' ');
}

function logFilter(rule: ContractLogRule): string {
  if (rule.contains === undefined && rule.where === undefined) return ' (every log)';
  const parts = [
    ...(rule.contains === undefined ? [] : [`containing "${rule.contains}"`]),
    ...(rule.where === undefined ? [] : [`where ${JSON.stringify(rule.where)}`]),
  ];
  return ` (logs ${parts.join(' and ')})`;
}

const shape = (network: Network | null, meta: RuleMetaParts) => ({
  contractLogs: list(ruleSchema(network, meta), 'log rules {"contractId": ..., "contains": ...}', noDuplicates(sameRule, 'contractLogs', 'the same rule')),
});

export const contractLogsList = {
  name: 'contractLogs',
  shape,
  entryKeys: keysOf((meta) => ruleSchema(null, meta).def.in.shape),
  windowSum: 'value',
  compile: ({ contractLogs }, meta = new RuleMetaCompiler()): CompiledLogRules =>
    groupBy(
      contractLogs.map(
        (rule): CompiledLogRule => ({
          ...rule,
          ...(rule.where ? { condition: compileWhere(rule.where, logUnits(rule)) } : {}),
          meta: meta.of(rule, defaultLogRuleName(rule)),
        }),
      ),
      (rule) => rule.contractId,
    ),
  describe: ({ contractLogs }) =>
    contractLogs.length === 0
      ? '- no contract logs'
      : [
          `- logs printed by ${plural(contractLogs.length, 'contract rule')}:`,
          ...summarised(
            contractLogs.map((r) => `    ${r.contractId}${logFilter(r)}${ruleWords(r)}`),
            'rule',
          ),
        ].join('\n'),
  nameWords: logNameWords,
} satisfies RuleList<'contractLogs', ReturnType<typeof shape>, CompiledLogRules>;
