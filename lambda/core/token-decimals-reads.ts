// Start-up's reading of token decimals (core/watch-config/token-decimals.ts says why): the tokens a config
// needs, from what earlier runs read (kept in the state store for ever), else from the token metadata API,
// each token at most once; what is newly read is stored before the config is used. A token that cannot be
// read is a problem naming it and the fix: a rule never runs at a guessed scale.
import type { ChainApi, StateStore } from './ports';
import type { ConfigProblem } from './watch-config/config-problems';
import { tokensNeedingDecimals, type TokenMetadata } from './watch-config/token-decimals';

export interface TokenDecimalsPorts {
  state: Pick<StateStore, 'readTokenDecimals' | 'writeTokenDecimals'>;
  /** Left out (an offline check): only what is stored is used, and the rest is noted as to be read at start. */
  chain?: Pick<ChainApi, 'getTokenMetadata'>;
}

export interface TokenDecimalsReading {
  /** The decimals known for the config's tokens, stored or newly read. */
  tokens: Map<string, TokenMetadata>;
  /** Tokens that cannot be read: the config is refused with these. */
  problems: ConfigProblem[];
  /** Tokens left to be read at start (no API asked). */
  toRead: string[];
}

const FIX = 'give "decimals" (and "symbol") in the rule, or write its amounts in base units without a unit';

/** The decimals the raw config's tokens need; `ports.chain` is asked only for those not stored. */
export async function readTokenDecimals(raw: unknown, ports: TokenDecimalsPorts): Promise<TokenDecimalsReading> {
  const needed = tokensNeedingDecimals(raw);
  const reading: TokenDecimalsReading = { tokens: new Map(), problems: [], toRead: [] };
  if (needed.length === 0) return reading;
  const stored = await ports.state.readTokenDecimals();
  const fresh = new Map<string, TokenMetadata>();
  for (const asset of needed) {
    const known = stored.get(asset);
    if (known) {
      reading.tokens.set(asset, known);
      continue;
    }
    if (!ports.chain) {
      reading.toRead.push(asset);
      continue;
    }
    const read = await readOne(ports.chain, asset);
    if (typeof read === 'string') reading.problems.push({ path: '$', value: asset, message: `${asset}'s decimals ${read}: ${FIX}` });
    else fresh.set(asset, read);
  }
  if (fresh.size > 0) await ports.state.writeTokenDecimals(new Map([...stored, ...fresh]));
  for (const [asset, read] of fresh) reading.tokens.set(asset, read);
  return reading;
}

async function readOne(chain: Pick<ChainApi, 'getTokenMetadata'>, asset: string): Promise<TokenMetadata | string> {
  if (!chain.getTokenMetadata) return 'cannot be read: this API has no token metadata';
  try {
    return (await chain.getTokenMetadata(asset)) ?? 'are not in the token metadata API (it does not know the token, or gives no decimals)';
  } catch (error) {
    return `could not be read from the token metadata API (${error instanceof Error ? error.message : String(error)})`;
  }
}
