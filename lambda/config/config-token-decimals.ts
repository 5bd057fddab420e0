// A watch config's text read with the decimals of the tokens it writes amounts of in their unit ("5 ALEX" on a
// token outside the shipped table, with no `decimals` in the rule): those the state keeps from earlier reads,
// else read from the token metadata API (core/watch-config/token-decimals-reads.ts), then validated like a rule that gave
// `decimals` itself. The function's live config (live-watch-config.ts) reads every version through it.
import type { Network } from '../core/domain';
import { readTokenDecimals, type TokenDecimalsPorts } from '../core/watch-config/token-decimals-reads';
import { tokensNeedingDecimals, withDecimalsToRead, withTokenDecimals } from '../core/watch-config/token-decimals';
import { configCeilings, type ConfigCeilings } from '../core/watch-config/config-ceilings';
import { ruleLists } from '../core/rules/rule-lists';
import { declaredNetwork, parseWatchConfig, readWatchConfigJson, type ConfigResult } from './watch-config';

/** Where a run reads and keeps token decimals: the state of the config's network, and the run's API client. */
export type TokenDecimalsFor = (network: Network) => TokenDecimalsPorts;

/** Tokens whose decimals the API did not give this time (no answer): the text is neither taken nor refused. */
export interface DecimalsUnread {
  ok: false;
  unread: { tokens: string[]; reason: string; cause?: unknown };
}

/**
 * A config that cannot be judged yet: the token metadata API gave no answer for decimals it needs. Not a
 * problem of the config (the same file works once the API answers): a run fails or keeps its last good
 * version, and the next one tries again. `cause` is the API's error.
 */
export class TokenDecimalsUnreadError extends Error {
  override name = 'TokenDecimalsUnreadError';
}

/** What a config needing unread decimals is told, naming `where` (a file, a version). */
export function unreadMessage(where: string, { unread }: DecimalsUnread): string {
  return `${where} needs the decimals of ${unread.tokens.join(', ')} from the token metadata API, which did not give them: ${unread.reason}; the next run reads them again`;
}

export type PreparedConfigResult = ConfigResult | DecimalsUnread;

export interface DecimalsReadOptions {
  decimalsFor?: TokenDecimalsFor | undefined;
  ceilings?: ConfigCeilings;
  /**
   * The network the watcher runs on: a text naming another is validated without reading its tokens (it is
   * refused for the network change anyway, and its tokens would be read from another network's API).
   */
  network?: Network | undefined;
}

export const isUnread = (result: PreparedConfigResult): result is DecimalsUnread => !result.ok && 'unread' in result;

/**
 * An offline check (the deploy's synth, `npm run config` without an API): every token whose decimals only its
 * metadata gives is left to the function's first run, and everything else validated. `toRead`: those tokens.
 */
export function parseLeavingDecimalsToRead(
  text: string,
  source: string,
  ceilings: ConfigCeilings = configCeilings(),
): { result: ConfigResult; toRead: string[] } {
  const read = readWatchConfigJson(text, source, ceilings);
  if (!read.ok) return { result: read, toRead: [] };
  const toRead = declaredNetwork(read.input) === null ? [] : tokensNeedingDecimals(read.input);
  return { result: parseWatchConfig(withDecimalsToRead(read.input, toRead), ruleLists, ceilings), toRead };
}

/** The warning of an offline check for a token it left to be read, and what to do to have it read now (`now`). */
export function decimalsAtFirstRun(asset: string, now: string): string {
  return `warning: ${asset}'s decimals are read from its token metadata at the function's first run (no API was asked here: ${now})`;
}

/** Parses and validates `text`, first reading the decimals its tokens need when `decimalsFor` is given. */
export async function parseWithTokenDecimals(text: string, source: string, options: DecimalsReadOptions = {}): Promise<PreparedConfigResult> {
  const ceilings = options.ceilings ?? configCeilings();
  const read = readWatchConfigJson(text, source, ceilings);
  if (!read.ok) return read;
  let input = read.input;
  const network = declaredNetwork(input);
  const reads = options.decimalsFor && network !== null && (options.network === undefined || options.network === network);
  if (reads && tokensNeedingDecimals(input).length > 0) {
    const reading = await readTokenDecimals(input, options.decimalsFor!(network));
    if (reading.problems.length > 0) return { ok: false, problems: reading.problems };
    if (reading.unread) return { ok: false, unread: reading.unread };
    input = withTokenDecimals(input, reading.tokens);
  }
  return parseWatchConfig(input, ruleLists, ceilings);
}
