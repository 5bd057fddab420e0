// The mistakes people make writing JSON by hand, found where they are: a comment (JSON has none) and a
// comma after the last entry (JSON allows none). The parser's own message names the character after the
// mistake, often on the next line ("Unexpected token ']'"), and quotes the text around it over several lines.

export interface JsonMistake {
  kind: 'comment' | 'trailing comma';
  /** 1-based, where the comment or the comma is. */
  line: number;
  column: number;
}

/** Every comment and trailing comma in `text`, in order; [] when it has none (its problem is something else). */
export function jsonMistakes(text: string): JsonMistake[] {
  const mistakes: JsonMistake[] = [];
  let line = 1;
  let lineStart = 0;
  /** The last comma outside a string, while only blanks and comments follow it. */
  let comma: { line: number; column: number } | null = null;
  const at = (offset: number) => ({ line, column: offset - lineStart + 1 });
  const newLine = (offset: number) => {
    line += 1;
    lineStart = offset + 1;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') {
      newLine(i);
    } else if (ch === '"') {
      // A string ends at its closing quote; one left open ends at the line's end, where the parser gives up too.
      for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      if (text[i] === '\n') newLine(i);
      comma = null;
    } else if (ch === '#' || (ch === '/' && text[i + 1] === '/')) {
      mistakes.push({ kind: 'comment', ...at(i) });
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      mistakes.push({ kind: 'comment', ...at(i) });
      for (i += 2; i < text.length && !(text[i] === '*' && text[i + 1] === '/'); i++) if (text[i] === '\n') newLine(i);
      i++;
    } else if (ch === ',') {
      comma = at(i);
    } else if (ch === ']' || ch === '}') {
      if (comma) mistakes.push({ kind: 'trailing comma', ...comma });
      comma = null;
    } else if (!/\s/.test(ch)) {
      comma = null;
    }
  }
  return mistakes;
}
