// The local runner's start-up reading of token decimals, before the config is validated: the network from the
// raw file, then the state (file or table) holding what earlier runs read, then the token metadata API for the
// rest (core/token-decimals-reads.ts). `--check` asks no API: a token not read yet is checked with its unit
// as written and noted as to be read at start.
import type { Telemetry } from '../core/ports';
import { readTokenDecimals } from '../core/token-decimals-reads';
import { WatchConfigError } from '../core/watch-config/config-problems';
import { tokensNeedingDecimals, withTokenDecimals, writtenUnit, type TokenMetadata } from '../core/watch-config/token-decimals';
import { declaredNetwork } from '../config/watch-config';
import { FileStateStore } from '../adapters/file/file-state-store';
import { createHiroClient } from '../hiro';
import { readApiSettings } from '../runtime/api-env';
import type { CliOptions } from './args';
import { hiroLog, openDynamoState, requestLog } from './local-deps';

/** Decimals that read any written fraction, for a check before the real ones are known: never run with. */
const UNREAD_DECIMALS = 38;

/** `prepare` for loadWatchConfigFile, and the notes `--check` prints of tokens it left to be read. */
export function tokenDecimalsStart(options: CliOptions, telemetry: Telemetry) {
  const notes: string[] = [];
  const prepare = async (raw: unknown): Promise<unknown> => {
    const network = declaredNetwork(raw);
    if (network === null || tokensNeedingDecimals(raw).length === 0) return raw; // the validation says what is wrong
    const state = options.table ? await openDynamoState(options.table, network, telemetry) : await FileStateStore.open(options.state, network);
    const chain = options.check ? undefined : createHiroClient({ ...readApiSettings(process.env, undefined, network), onRequest: requestLog(telemetry), log: hiroLog(telemetry) });
    const reading = await readTokenDecimals(raw, { state, ...(chain ? { chain } : {}) });
    if (reading.problems.length > 0) throw new WatchConfigError(reading.problems, options.config);
    const tokens = new Map<string, TokenMetadata>(reading.tokens);
    for (const asset of reading.toRead) {
      notes.push(`${asset}'s decimals will be read from the token metadata API at start`);
      const unit = writtenUnit(raw, asset);
      tokens.set(asset, { decimals: UNREAD_DECIMALS, ...(unit !== undefined ? { symbol: unit } : {}) });
    }
    return withTokenDecimals(raw, tokens);
  };
  return { prepare, notes };
}
