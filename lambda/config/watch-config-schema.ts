// The watch config's shape in zod. Messages are written for the person editing watch.json: each says what
// the field must hold, since the path and the bad value are shown beside it.
// A namespace import lets esbuild drop what is not used (zod's 60 locales alone are 260 KiB).
import * as z from 'zod';
import type { Network } from '../core/domain';
import { contractIdProblem, recipientProblem } from './stacks-principals';

export const NETWORKS = ['mainnet', 'testnet'] as const satisfies readonly Network[];

export const DEFAULTS = { startHeight: 'latest', confirmations: 0, maxBlocksPerRun: 500 } as const;

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
  return z.int({ error: message }).min(min, { error: message }).max(max, { error: message });
}

/**
 * Free text ignored by the watcher: JSON has no comments, so a `$comment` key (the JSON Schema
 * convention) may explain the file or a rule.
 */
const comment = z
  .union([z.string(), z.array(z.string())], { error: 'must be a string or a list of strings (it is a comment)' })
  .optional();

function principal(problemOf: (text: string, network: Network | null) => string | null, network: Network | null, what: string) {
  return z.string({ error: needs(what) }).superRefine((text, ctx) => {
    const problem = problemOf(text, network);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/**
 * Reports the second and later copies of an entry, each pointing at the first. It runs even when another
 * entry has the wrong type (zod would skip it then), so that every problem shows in one pass; `keyOf`
 * returns null for entries it cannot compare.
 */
function noDuplicates(keyOf: (item: unknown) => string | null, listName: string, what: string) {
  return (items: readonly unknown[], ctx: z.RefinementCtx) => {
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

function sameRule(item: unknown): string | null {
  if (typeof item !== 'object' || item === null) return null;
  const { contractId, contains } = item as { contractId?: unknown; contains?: unknown };
  return typeof contractId === 'string' ? JSON.stringify([contractId, typeof contains === 'string' ? contains : null]) : null;
}

function list<T extends z.ZodType>(item: T, what: string) {
  return z.array(item, { error: `must be a list [...] of ${what} (it may be empty)` });
}

/** The config schema; `network` (when the file names a valid one) lets addresses be checked against it. */
export function watchConfigSchema(network: Network | null) {
  const contractId = principal(contractIdProblem, network, 'a contract id "ADDRESS.contract-name" in quotes');
  const recipient = principal(recipientProblem, network, 'a Stacks address in quotes');

  const logRule = z.strictObject(
    {
      $comment: comment,
      contractId,
      contains: z
        .string({ error: 'must be text to look for in the log value, in quotes (leave it out to match every log)' })
        .min(1, { error: 'must not be empty; leave "contains" out to match every log of the contract' })
        .optional(),
    },
    { error: 'must be an object like {"contractId": "ADDRESS.contract-name", "contains": "optional text"}' },
  );

  const startHeightMessage = needs('"latest" or a block height (a whole number, 0 or more) to start scanning from');

  return z.strictObject(
    {
      $comment: comment,
      network: z.enum(NETWORKS, { error: needs('"mainnet" or "testnet"') }),
      contracts: list(contractId, 'contract ids whose deployment status to watch')
        .superRefine(noDuplicates(sameString, 'contracts', 'the same contract'), evenWithBadEntries)
        .default([]),
      addresses: list(recipient, 'addresses whose incoming STX transfers to watch')
        .superRefine(noDuplicates(sameString, 'addresses', 'the same address'), evenWithBadEntries)
        .default([]),
      contractLogs: list(logRule, 'log rules {"contractId": ..., "contains": ...}')
        .superRefine(noDuplicates(sameRule, 'contractLogs', 'the same contractId and contains'), evenWithBadEntries)
        .default([]),
      startHeight: z
        .union([z.literal('latest'), z.int({ error: startHeightMessage }).min(0, { error: startHeightMessage })], {
          error: startHeightMessage,
        })
        .default(DEFAULTS.startHeight),
      confirmations: wholeNumber(0, 100).default(DEFAULTS.confirmations),
      maxBlocksPerRun: wholeNumber(1, 10_000).default(DEFAULTS.maxBlocksPerRun),
    },
    { error: 'the watch config must be a JSON object {"network": ..., "contracts": [...], ...}' },
  );
}

const anySchema = watchConfigSchema(null);

/** The keys a config and a log rule may have, for "did you mean" hints on unknown ones. */
export const ALLOWED_KEYS = {
  top: Object.keys(anySchema.shape),
  rule: Object.keys(anySchema.shape.contractLogs.unwrap().element.shape),
} as const;
