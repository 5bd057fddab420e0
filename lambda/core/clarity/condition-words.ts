// A `where` condition as a person reads it (`event is "deposit" and amount ≥ 1,000,000`), for a rule's name
// in a message: the config's JSON is the developer's spelling of it.
import type { WhereSpec } from './conditions';
import { groupDigits } from '../render/stx-amount';
import { amountText } from '../watch-config/amounts';

const COMPARISONS: Record<string, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤' };

function operand(value: unknown): string {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return groupDigits(BigInt(value));
  return JSON.stringify(value) ?? String(value);
}

/** A bound: an integer grouped (`1,000,000`), an amount with its unit as written (`0.5 sBTC`), else its JSON. */
function number(value: unknown): string {
  if (typeof value !== 'string') return operand(value);
  if (/^-?\d+$/.test(value)) return groupDigits(BigInt(value));
  const text = amountText(value);
  return typeof text !== 'string' && text.unit !== null ? value.trim() : operand(value);
}

function operatorWords(path: string, operator: string, value: unknown): string {
  if (operator in COMPARISONS) return `${path} ${COMPARISONS[operator]} ${number(value)}`;
  switch (operator) {
    case 'eq':
      return `${path} is ${operand(value)}`;
    case 'ne':
      return `${path} is not ${operand(value)}`;
    case 'in':
      return `${path} is one of ${Array.isArray(value) ? value.map(operand).join(', ') : operand(value)}`;
    case 'contains':
      return `${path} contains ${operand(value)}`;
    case 'startsWith':
      return `${path} starts with ${operand(value)}`;
    case 'exists':
      return `${path} ${value === false ? 'is absent' : 'is present'}`;
    default:
      return `${path} ${operator} ${operand(value)}`;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every condition of `where`, joined by "and"; `anyOf` and `not` in words. */
export function whereWords(where: WhereSpec): string {
  const parts = Object.entries(where).map(([key, spec]) => {
    if (key === 'anyOf' && Array.isArray(spec)) return `any of (${spec.map((item) => whereWords(item as WhereSpec)).join('; ')})`;
    if (key === 'not' && isObject(spec)) return `not (${whereWords(spec)})`;
    const path = key === '$' ? 'the value' : key;
    if (!isObject(spec)) return `${path} is ${operand(spec)}`;
    return Object.entries(spec)
      .map(([operator, value]) => operatorWords(path, operator, value))
      .join(' and ');
  });
  return parts.join(' and ');
}
