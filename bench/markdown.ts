// Markdown tables and the number formats the report uses.

export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.map(String).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const fixed = (value: number, digits = 2): string => value.toFixed(digits);

export const thousands = (value: number): string => Math.round(value).toLocaleString('en-US');

export const percent = (share: number, digits = 1): string => `${(share * 100).toFixed(digits)} %`;

export const dollars = (value: number): string => (value >= 0.1 ? `$${value.toFixed(2)}` : `$${value.toFixed(4)}`);

export const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

export const ratio = (value: number): string => `${value.toFixed(2)}×`;

/** ✅ when `ok`, else ❌, for the goal columns. */
export const verdict = (ok: boolean): string => (ok ? '✅' : '❌');
