// A decoded Clarity value as a person reads it: integers with their digits grouped (`1,000,000`, not
// `u1000000`), text as text, principals whole, optionals and responses in words, nested values inline. On-chain
// text: every string is cleaned of invisible and line-breaking characters by the caller's sanitizer.
import type { ClarityTree } from '../clarity/decode';
import { groupDigits } from './stx-amount';

/** How many items of a list, or fields of a nested tuple, are shown before "…". */
const INLINE_ITEMS = 10;

export function readableClarity(tree: ClarityTree): string {
  switch (tree.type) {
    case 'int':
    case 'uint':
      return groupDigits(tree.value);
    case 'bool':
      return String(tree.value);
    case 'buffer':
      return tree.hex;
    case 'string':
    case 'principal':
      return tree.value;
    case 'none':
      return 'none';
    case 'ok':
    case 'err':
      return `${tree.type} ${readableClarity(tree.value)}`;
    case 'list': {
      const shown = tree.items.slice(0, INLINE_ITEMS).map(readableClarity);
      return `[${shown.join(', ')}${tree.items.length > INLINE_ITEMS ? `, … ${tree.items.length - INLINE_ITEMS} more` : ''}]`;
    }
    case 'tuple': {
      const entries = [...tree.fields];
      const shown = entries.slice(0, INLINE_ITEMS).map(([key, field]) => `${key}: ${readableClarity(field)}`);
      return `{${shown.join(', ')}${entries.length > INLINE_ITEMS ? `, … ${entries.length - INLINE_ITEMS} more` : ''}}`;
    }
  }
}

/** A tuple's fields as [key, readable value] pairs; null for any other value. */
export function tupleFields(tree: ClarityTree | null): [string, string][] | null {
  if (tree?.type !== 'tuple' || tree.fields.size === 0) return null;
  return [...tree.fields].map(([key, field]) => [key, readableClarity(field)]);
}
