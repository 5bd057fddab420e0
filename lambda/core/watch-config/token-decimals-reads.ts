// Reading the token decimals a config needs (core/watch-config/token-decimals.ts says why): from what earlier
// runs read (kept in the state store for ever), else from the token metadata API, each token at most once;
// what is newly read is stored before the config is used. Two kinds of failure are told apart: a definite
// answer (the API does not know the token, or gives no usable decimals) is a problem naming the token and the
// fix, and the config is refused; no answer (a timeout, a 5xx, a 429, no network) is `unread`: the config is
// neither taken nor refused, and the read is tried again by the next run. A rule never runs at a guessed scale.
import type { ChainApi, RecordPort } from '../ports';
import type { ConfigProblem } from './config-problems';
import { tokensNeedingDecimals, type TokenMetadata } from './token-decimals';

export interface TokenDecimalsPorts {
  state: RecordPort<'tokenDecimals'>;
  /** Left out (an offline check): only what is stored is used, and the rest is noted as to be read at start. */
  chain?: Pick<ChainApi, 'getTokenMetadata'>;
  /** At most this many tokens asked of the API (a run's share of its budget); the rest are left unread. */
  maxReads?: number;
}

export interface TokenDecimalsReading {
  /** The decimals known for the config's tokens, stored or newly read. */
  tokens: Map<string, TokenMetadata>;
  /** Tokens the API answered for without usable decimals: the config is refused with these. */
  problems: ConfigProblem[];
  /** Tokens left to be read at start (no API asked). */
  toRead: string[];
  /** Tokens the API gave no answer for (or not asked, past `maxReads` or after one that failed), and why. */
  unread: { tokens: string[]; reason: string; cause?: unknown } | null;
}

export const DECIMALS_FIX = 'give "decimals" (and "symbol") in the rule, or write its amounts in base units without a unit';

/** The decimals the raw config's tokens need; `ports.chain` is asked only for those not stored. */
export async function readTokenDecimals(raw: unknown, ports: TokenDecimalsPorts): Promise<TokenDecimalsReading> {
  const needed = tokensNeedingDecimals(raw);
  const reading: TokenDecimalsReading = { tokens: new Map(), problems: [], toRead: [], unread: null };
  if (needed.length === 0) return reading;
  const stored = new Map(Object.entries((await ports.state.readRecord('tokenDecimals')) ?? {}));
  for (const asset of needed) {
    const known = stored.get(asset);
    if (known) reading.tokens.set(asset, known);
    else if (!ports.chain) reading.toRead.push(asset);
  }
  const missing = ports.chain ? needed.filter((asset) => !stored.has(asset)) : [];
  const fresh = await readMissing(missing, ports, reading);
  if (fresh.size > 0) await ports.state.writeRecord('tokenDecimals', Object.fromEntries([...stored, ...fresh]));
  for (const [asset, read] of fresh) reading.tokens.set(asset, read);
  return reading;
}

/** Asks the API for each missing token in turn; the first that gets no answer ends the reads (the API is out). */
async function readMissing(missing: string[], ports: TokenDecimalsPorts, reading: TokenDecimalsReading): Promise<Map<string, TokenMetadata>> {
  const fresh = new Map<string, TokenMetadata>();
  const maxReads = ports.maxReads ?? Infinity;
  for (const [index, asset] of missing.entries()) {
    if (index >= maxReads) {
      reading.unread = { tokens: missing.slice(index), reason: `at most ${maxReads} tokens' metadata are read a run; the rest are read by the next runs` };
      break;
    }
    const read = await readOne(ports.chain!, asset);
    if ('unanswered' in read) {
      reading.unread = { tokens: missing.slice(index), reason: read.unanswered, cause: read.cause };
      break;
    }
    if ('refused' in read) reading.problems.push({ path: '$', value: asset, message: `${asset}'s decimals ${read.refused}: ${DECIMALS_FIX}` });
    else fresh.set(asset, read.metadata);
  }
  return fresh;
}

type OneRead = { metadata: TokenMetadata } | { refused: string } | { unanswered: string; cause: unknown };

async function readOne(chain: Pick<ChainApi, 'getTokenMetadata'>, asset: string): Promise<OneRead> {
  if (!chain.getTokenMetadata) return { refused: 'cannot be read: this API has no token metadata' };
  try {
    const metadata = await chain.getTokenMetadata(asset);
    return metadata ? { metadata } : { refused: 'are not in the token metadata API (it does not know the token, or gives no decimals)' };
  } catch (error) {
    return { unanswered: `the token metadata API did not answer for ${asset} (${error instanceof Error ? error.message : String(error)})`, cause: error };
  }
}
