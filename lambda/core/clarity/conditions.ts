// `where` on a contractLogs rule: conditions on the decoded Clarity value a contract printed. One definition
// of the language serves both the config check (`conditionProblems`, every mistake with its JSON path) and
// the matcher (`compileWhere`, run on every matching log). A value of the wrong type or a missing path does
// not match: a print whose shape changed must not raise alerts nor stop the scan.
import type { ClarityTree } from './decode';
import { isUnsafeInteger, TOO_BIG_FOR_A_JSON_NUMBER } from '../watch-config/config-problems';
import { amountOperandProblem, boundOf, type UnitsOf } from './condition-amounts';

/** `where` as written in the config: path → bare value or operators, plus `anyOf` and `not`. */
export type WhereSpec = { [key: string]: unknown };

export const OPERATORS = ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'contains', 'startsWith', 'exists'] as const;
type Operator = (typeof OPERATORS)[number];

/** A tuple key (Clarity names hold letters, digits and `-_!?+<>=/*`) or a list index. */
const SEGMENT = /^[a-zA-Z0-9\-_!?+<>=/*]+$/;
const INTEGER_TEXT = /^-?\d+$/;

export interface ConditionProblem {
  /** Path inside `where`, e.g. ["amount", "gte"]. */
  path: (string | number)[];
  message: string;
}

export type Condition = (value: ClarityTree) => boolean;

// ---- checking the config ----

function pathProblem(path: string): string | null {
  if (path === '$') return null;
  const segments = path.split('.');
  if (segments.every((s) => SEGMENT.test(s))) return null;
  return `is not a path: write tuple keys and list indexes joined by "." (e.g. "user", "details.amount", "items.0"), or "$" for the whole value`;
}

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'boolean' || value === null || (typeof value === 'number' && Number.isSafeInteger(value));
}

const SCALAR = 'a string, a whole number, true, false or null';

/** `">= 100"`: a comparison written as the text to equal; `{"eq": ">= 100"}` still says the text is meant. */
const COMPARISON_IN_TEXT = /^\s*(>=|<=|>|<|==|=|!=)\s*(-?\d+)\s*$/;
const OPERATOR_OF: Record<string, Operator> = { '>=': 'gte', '<=': 'lte', '>': 'gt', '<': 'lt', '==': 'eq', '=': 'eq', '!=': 'ne' };

/** Why a value to equal is a comparison in disguise, with the condition meant; null for any other value. */
function comparisonInText(value: unknown): string | null {
  const match = typeof value === 'string' ? COMPARISON_IN_TEXT.exec(value) : null;
  if (!match) return null;
  const operator = OPERATOR_OF[match[1]!]!;
  return `looks like a comparison but is text to equal: to compare numbers write {"${operator}": "${match[2]}"} (for the text itself, {"eq": ${JSON.stringify(value)}})`;
}

function operandProblem(operator: Operator, operand: unknown, unitsOf: UnitsOf): string | null {
  switch (operator) {
    case 'eq':
    case 'ne':
      return isScalar(operand) ? null : `"${operator}" needs ${SCALAR}`;
    case 'in':
      return Array.isArray(operand) && operand.length > 0 && operand.every(isScalar) ? null : `"in" needs a non-empty list of values (${SCALAR})`;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (isUnsafeInteger(operand)) return `"${operator}" ${TOO_BIG_FOR_A_JSON_NUMBER}`;
      if (typeof operand === 'string') {
        const amount = amountOperandProblem(operator, operand, unitsOf);
        if (amount !== undefined) return amount;
      }
      return (typeof operand === 'number' && Number.isSafeInteger(operand)) || (typeof operand === 'string' && INTEGER_TEXT.test(operand))
        ? null
        : `"${operator}" compares integers: it needs a whole number, one in quotes for big values like "1000000000000", or an amount with its unit like "1,000 STX"`;
    case 'startsWith':
      if (typeof operand === 'number') return `"startsWith" compares text: write the number in quotes, {"startsWith": "${operand}"}`;
      return typeof operand === 'string' ? null : '"startsWith" needs a string';
    case 'contains':
      // A list is searched in its own items' type: a bare number finds an int or uint item of that value.
      if (isUnsafeInteger(operand)) return `"contains" ${TOO_BIG_FOR_A_JSON_NUMBER}`;
      return isScalar(operand) && operand !== null ? null : `"contains" needs a string (or, to find a list item, ${SCALAR})`;
    case 'exists':
      return typeof operand === 'boolean' ? null : '"exists" needs true or false';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every mistake in a `where` object, each at its path; [] when it is sound. `unitsOf` says which units an
 * amount may name (null: any, for a check that cannot see the rule's `decimals` and `symbol`).
 */
export function conditionProblems(where: unknown, at: (string | number)[] = [], unitsOf: UnitsOf = null): ConditionProblem[] {
  if (!isObject(where) || Object.keys(where).length === 0) {
    return [{ path: at, message: 'must be an object of conditions like {"action": "withdraw", "amount": {"gte": "1000"}}' }];
  }
  const problems: ConditionProblem[] = [];
  for (const [key, spec] of Object.entries(where)) {
    const here = [...at, key];
    if (key === 'anyOf') {
      if (!Array.isArray(spec) || spec.length === 0) problems.push({ path: here, message: 'must be a non-empty list of condition objects' });
      else spec.forEach((item, index) => problems.push(...conditionProblems(item, [...here, index], unitsOf)));
      continue;
    }
    if (key === 'not') {
      problems.push(...conditionProblems(spec, here, unitsOf));
      continue;
    }
    const badPath = pathProblem(key);
    if (badPath) problems.push({ path: here, message: `"${key}" ${badPath}` });
    if (Array.isArray(spec)) {
      problems.push({ path: here, message: 'a list is not a value to compare with; for "one of these" write {"in": [...]}' });
    } else if (isObject(spec)) {
      if (Object.keys(spec).length === 0) problems.push({ path: here, message: `needs an operator: ${OPERATORS.join(', ')}` });
      for (const [operator, operand] of Object.entries(spec)) {
        if (!(OPERATORS as readonly string[]).includes(operator)) {
          problems.push({ path: [...here, operator], message: `unknown operator "${operator}": use one of ${OPERATORS.join(', ')}` });
          continue;
        }
        const problem = operandProblem(operator as Operator, operand, unitsOf);
        if (problem) problems.push({ path: [...here, operator], message: problem });
      }
    } else if (!isScalar(spec)) {
      problems.push({ path: here, message: `must be a value to equal (${SCALAR}) or an object of operators` });
    } else {
      const disguised = comparisonInText(spec);
      if (disguised) problems.push({ path: here, message: disguised });
    }
  }
  return problems;
}

// ---- evaluating ----

/** The value at `path`, or undefined when the path leads nowhere (a missing key, an index past the end). */
function resolve(value: ClarityTree, segments: readonly string[]): ClarityTree | undefined {
  let current: ClarityTree | undefined = value;
  for (const segment of segments) {
    if (current === undefined) return undefined;
    if (current.type === 'tuple') current = current.fields.get(segment);
    else if (current.type === 'list' && /^\d+$/.test(segment)) current = current.items[Number(segment)];
    else if ((current.type === 'ok' || current.type === 'err') && segment === current.type) current = current.value;
    else return undefined;
  }
  return current;
}

/** Equality of a Clarity value with a config value; a mismatched type is simply not equal. */
function equals(value: ClarityTree, operand: unknown): boolean {
  switch (value.type) {
    case 'int':
    case 'uint':
      return (typeof operand === 'number' || (typeof operand === 'string' && INTEGER_TEXT.test(operand))) && BigInt(operand) === value.value;
    case 'string':
    case 'principal':
      return operand === value.value;
    case 'buffer':
      return typeof operand === 'string' && operand.toLowerCase() === value.hex;
    case 'bool':
      return operand === value.value;
    case 'none':
      return operand === null;
    default:
      return false;
  }
}

function text(value: ClarityTree): string | null {
  if (value.type === 'string' || value.type === 'principal') return value.value;
  return null;
}

function test(operator: Operator, operand: unknown, value: ClarityTree | undefined): boolean {
  if (operator === 'exists') return (value !== undefined) === operand;
  if (value === undefined) return false;
  switch (operator) {
    case 'eq':
      return equals(value, operand);
    case 'ne':
      return !equals(value, operand);
    case 'in':
      return (operand as unknown[]).some((item) => equals(value, item));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      if (value.type !== 'int' && value.type !== 'uint') return false;
      const bound = operand as bigint;
      if (operator === 'gt') return value.value > bound;
      if (operator === 'gte') return value.value >= bound;
      if (operator === 'lt') return value.value < bound;
      return value.value <= bound;
    }
    case 'contains':
      if (value.type === 'list') return value.items.some((item) => equals(item, operand));
      if (value.type === 'buffer') return typeof operand === 'string' && hexContains(value.hex, operand, false);
      return typeof operand === 'string' && (text(value)?.includes(operand) ?? false);
    case 'startsWith':
      if (value.type === 'buffer') return typeof operand === 'string' && hexContains(value.hex, operand, true);
      return typeof operand === 'string' && (text(value)?.startsWith(operand) ?? false);
  }
}

/** Byte-aligned search of hex digits (`0x` optional) in a buffer. */
function hexContains(bufferHex: string, operand: string, atStart: boolean): boolean {
  const needle = (operand.startsWith('0x') ? operand.slice(2) : operand).toLowerCase();
  if (!/^([0-9a-f]{2})*$/.test(needle)) return false;
  const digits = bufferHex.slice(2);
  if (atStart) return digits.startsWith(needle);
  for (let at = digits.indexOf(needle); at >= 0; at = digits.indexOf(needle, at + 1)) if (at % 2 === 0) return true;
  return false;
}

const ORDERING: ReadonlySet<string> = new Set(['gt', 'gte', 'lt', 'lte']);

/**
 * Compiles a `where` the config check accepted; the conditions of one object all hold (AND). The bounds of
 * the ordering operators are read once here, amounts with a unit scaled by `unitsOf`.
 */
export function compileWhere(where: WhereSpec, unitsOf: UnitsOf = null): Condition {
  const parts: Condition[] = Object.entries(where).map(([key, spec]): Condition => {
    if (key === 'anyOf') {
      const options = (spec as WhereSpec[]).map((option) => compileWhere(option, unitsOf));
      return (value) => options.some((option) => option(value));
    }
    if (key === 'not') {
      const inner = compileWhere(spec as WhereSpec, unitsOf);
      return (value) => !inner(value);
    }
    const segments = key === '$' ? [] : key.split('.');
    const written = isObject(spec) ? Object.entries(spec) : [['eq', spec] as const];
    const tests = written.map(([operator, operand]) => [operator, ORDERING.has(operator) ? boundOf(operand as string | number, unitsOf) : operand] as const);
    return (value) => {
      const found = resolve(value, segments);
      return tests.every(([operator, operand]) => test(operator as Operator, operand, found));
    };
  });
  return (value) => parts.every((part) => part(value));
}
