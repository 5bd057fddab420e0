// How big a watch config may be: what the function can read, parse and hold in its memory, checked before
// the config is walked, so that one past a ceiling is refused like any bad version (the function keeps its
// last good one) instead of running it out of heap or stack on every run. `npm run config -- validate` and
// `push` check the same ceilings for the deployed memory. Figures: bench table 9c, docs/watch-config-store.md.
import { type ConfigProblem, formatPath } from './config-problems';
import { formatCount as count } from '../render/stx-amount';

/** The function memory the stack deploys unless told otherwise (infra's DEFAULT_MEMORY_MB). */
export const DEFAULT_FUNCTION_MEMORY_MB = 256;

/**
 * Arrays and objects inside each other: the deepest form a rule takes (`where` with `anyOf` and `not`) is a
 * handful of levels, while every check that describes a value, compares two rules or compiles a condition
 * recurses once a level, so a 20 KB file nested thousands deep would overflow the stack.
 */
export const MAX_NESTING_DEPTH = 64;

/**
 * What each 256 MB of function memory (a 128 MB heap: the stack gives V8 half) holds: parsing is the peak,
 * the text and every address held at once, then the checked config stays for the run beside a catch-up's
 * blocks (bench tables 7 and 9c). 250,000 addresses are 9 MiB of JSON written one a line. `tokens` bounds
 * what the bytes alone do not: 16 MiB of `[],` parse into 5 million lists, past a 128 MB heap.
 */
const PER_256_MB = { bytes: 16 * 2 ** 20, tokens: 600_000, addresses: 250_000, rules: 10_000 };

/** Past this memory the ceilings stop growing: 2,000,000 addresses already take seconds to check at a cold start. */
const GROWS_UP_TO_MB = 2048;

export interface ConfigCeilings {
  /** The function memory the ceilings are for, named in every refusal. */
  memoryMb: number;
  /** The config's text, in bytes (UTF-8): checked before it is downloaded or parsed. */
  bytes: number;
  /**
   * What the parse allocates, counted in the text before it is parsed: each value after a comma, each key
   * (its colon) and each list or object (its opening bracket) counts one.
   */
  tokens: number;
  /** Entries of `addresses`. */
  addresses: number;
  /** Entries of every other rule list together (contracts, contractLogs, transfers, calls, windows, balances). */
  rules: number;
}

/** The ceilings of a function of `memoryMb`, in proportion to its memory up to 2 GB. */
export function configCeilings(memoryMb: number = DEFAULT_FUNCTION_MEMORY_MB): ConfigCeilings {
  const scale = Math.min(memoryMb, GROWS_UP_TO_MB) / 256;
  return {
    memoryMb,
    bytes: Math.floor(PER_256_MB.bytes * scale),
    tokens: Math.floor(PER_256_MB.tokens * scale),
    addresses: Math.floor(PER_256_MB.addresses * scale),
    rules: Math.floor(PER_256_MB.rules * scale),
  };
}

/** The smallest memory (in 128 MB steps) whose ceiling holds `needed`, or null past the largest ceilings. */
type Counted = 'bytes' | 'tokens' | 'addresses' | 'rules';

function memoryHolding(needed: number, of: Counted): number | null {
  for (let memoryMb = 128; memoryMb <= GROWS_UP_TO_MB; memoryMb += 128) if (configCeilings(memoryMb)[of] >= needed) return memoryMb;
  return null;
}

function remedy(needed: number, of: Counted): string {
  const memoryMb = memoryHolding(needed, of);
  return memoryMb === null
    ? 'more than any function memory holds: split the config across stacks (-c stackName=…)'
    : `deploy with memorySize ${memoryMb} or more (deploy.json), or split the config across stacks`;
}

/** The text is refused by its length alone, before it is downloaded or parsed. */
export function bytesProblem(bytes: number, ceilings: ConfigCeilings, source: string): ConfigProblem | null {
  if (bytes <= ceilings.bytes) return null;
  return {
    path: '$',
    value: undefined,
    message: `${source} is ${count(bytes)} bytes; a function of ${ceilings.memoryMb} MB reads at most ${count(ceilings.bytes)}: ${remedy(bytes, 'bytes')}`,
  };
}

/**
 * The JSON tokens of `text` (a comma, a colon or an opening bracket outside a string, and the root), counted
 * without parsing it: a text within the bytes ceiling may still parse into many times its size when it is
 * made of tiny values.
 */
export function countJsonTokens(text: string): number {
  let tokens = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x2c || c === 0x3a || c === 0x5b || c === 0x7b) tokens++;
  }
  return tokens;
}

/** Too many JSON tokens for the function's heap, counted on the text before the parse. */
export function tokensProblem(text: string, ceilings: ConfigCeilings, source: string): ConfigProblem | null {
  const tokens = countJsonTokens(text);
  if (tokens <= ceilings.tokens) return null;
  return {
    path: '$',
    value: undefined,
    message: `${source} holds ${count(tokens)} JSON tokens (values, keys, lists and objects); a function of ${ceilings.memoryMb} MB parses at most ${count(ceilings.tokens)}: ${remedy(tokens, 'tokens')}`,
  };
}

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * The first place `input` nests deeper than `maxDepth`, found without recursion (the parsed value may be
 * nested thousands deep). The path names the rule it is in: its first three steps.
 */
export function nestingProblem(input: unknown, maxDepth: number = MAX_NESTING_DEPTH): ConfigProblem | null {
  const pending: { value: unknown; depth: number; path: (string | number)[] }[] = [{ value: input, depth: 1, path: [] }];
  while (pending.length > 0) {
    const { value, depth, path } = pending.pop()!;
    if (!isContainer(value)) continue;
    if (depth > maxDepth) {
      return {
        path: formatPath(path.slice(0, 3)),
        value: undefined,
        message: `nests arrays and objects more than ${maxDepth} deep; no rule needs more than a few levels`,
      };
    }
    // Keys and items one at a time: a million addresses must not become a million [index, item] pairs.
    const push = (key: string | number, item: unknown) => {
      if (isContainer(item)) pending.push({ value: item, depth: depth + 1, path: path.length < 3 ? [...path, key] : path });
    };
    if (Array.isArray(value)) value.forEach((item: unknown, index) => push(index, item));
    else for (const key of Object.keys(value)) push(key, (value as Record<string, unknown>)[key]);
  }
  return null;
}

/** Too many addresses, or too many rules in all the other lists: counted before any entry is checked. */
export function countProblems(input: unknown, ceilings: ConfigCeilings, ruleListNames: readonly string[]): ConfigProblem[] {
  if (!isContainer(input) || Array.isArray(input)) return [];
  const config = input as Record<string, unknown>;
  const lengthOf = (name: string) => (Array.isArray(config[name]) ? (config[name] as unknown[]).length : 0);
  const problems: ConfigProblem[] = [];
  const addresses = lengthOf('addresses');
  if (addresses > ceilings.addresses) {
    problems.push({
      path: '$.addresses',
      value: undefined,
      message: `lists ${count(addresses)} addresses; a function of ${ceilings.memoryMb} MB holds at most ${count(ceilings.addresses)}: ${remedy(addresses, 'addresses')}`,
    });
  }
  const lists = ruleListNames.filter((name) => name !== 'addresses' && lengthOf(name) > 0);
  const rules = lists.reduce((sum, name) => sum + lengthOf(name), 0);
  if (rules > ceilings.rules) {
    problems.push({
      path: '$',
      value: undefined,
      message: `holds ${count(rules)} rules (${lists.map((name) => `${name} ${count(lengthOf(name))}`).join(', ')}); a function of ${ceilings.memoryMb} MB holds at most ${count(ceilings.rules)}: ${remedy(rules, 'rules')}`,
    });
  }
  return problems;
}
