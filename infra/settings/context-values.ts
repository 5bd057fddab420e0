// CDK context arrives in two forms: strings from `-c key=value` on the command line, and JSON values from
// cdk.json or cdk.context.json. These turn both into the same typed value before the schema checks it.
import { z } from 'zod';

/** A JSON text is parsed; anything else is left for the schema to reject with its own message. */
function fromJsonText(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** `a,b` or `["a","b"]` on the command line, or a JSON array in cdk.json. */
function toList(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const text = raw.trim();
  if (text.startsWith('[')) return fromJsonText(text);
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function toNumber(raw: unknown): unknown {
  return typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw;
}

function toBoolean(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const text = raw.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  return raw;
}

export function stringList<T extends z.ZodType<string>>(item: T, what: string) {
  return z.preprocess(toList, z.array(item, { error: `must be ${what}, comma-separated or a JSON array` }));
}

export function wholeNumber(min: number, max: number, unit = '') {
  const what = `must be a whole number${unit} from ${min} to ${max}`;
  return z.preprocess(toNumber, z.int({ error: what }).min(min, { error: what }).max(max, { error: what }));
}

export function flag() {
  return z.preprocess(toBoolean, z.boolean({ error: 'must be true or false' }));
}

/** A JSON value given inline (`-c key='[...]'`) or as JSON in cdk.json. */
export function jsonValue<T extends z.ZodType>(schema: T) {
  return z.preprocess(fromJsonText, schema);
}
