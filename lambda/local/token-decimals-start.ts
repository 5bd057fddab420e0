// The local runner's start-up reading of token decimals, before the config is validated: the network from the
// raw file, then the state (file or table) holding what earlier runs read, then the token metadata API for the
// rest (core/watch-config/token-decimals-reads.ts), through the run's own client (its budget counts the reads). `--check`
// asks no API: a token not read yet is checked with its unit as written and noted as to be read at start.
// An API that gives no answer is not a problem of the config: TokenDecimalsUnreadError, exit 1.
import type { Network } from '../core/domain';
import type { Telemetry } from '../core/ports';
import { readTokenDecimals } from '../core/watch-config/token-decimals-reads';
import { WatchConfigError } from '../core/watch-config/config-problems';
import { tokensNeedingDecimals, withDecimalsToRead, withTokenDecimals } from '../core/watch-config/token-decimals';
import { declaredNetwork } from '../config/watch-config';
import { TokenDecimalsUnreadError, unreadMessage } from '../config/config-token-decimals';
import { FileStateStore } from '../adapters/file/file-state-store';
import type { HiroClient } from '../hiro';
import type { CliOptions } from './args';
import { openDynamoState } from './local-deps';

/** `prepare` for loadWatchConfigFile, and the notes `--check` prints of tokens it left to be read. `runChain`: the run's client for a network. */
export function tokenDecimalsStart(options: CliOptions, telemetry: Telemetry, runChain: (network: Network) => HiroClient) {
  const notes: string[] = [];
  const prepare = async (raw: unknown): Promise<unknown> => {
    const network = declaredNetwork(raw);
    if (network === null || tokensNeedingDecimals(raw).length === 0) return raw; // the validation says what is wrong
    const state = options.table ? await openDynamoState(options.table, network, telemetry) : await FileStateStore.open(options.state, network);
    const chain = options.check ? undefined : runChain(network);
    const reading = await readTokenDecimals(raw, { state, ...(chain ? { chain } : {}) });
    if (reading.problems.length > 0) throw new WatchConfigError(reading.problems, options.config);
    if (reading.unread)
      throw new TokenDecimalsUnreadError(unreadMessage(options.config, { ok: false, unread: reading.unread }), { cause: reading.unread.cause });
    for (const asset of reading.toRead) notes.push(`${asset}'s decimals will be read from the token metadata API at start`);
    return withDecimalsToRead(withTokenDecimals(raw, reading.tokens), reading.toRead);
  };
  return { prepare, notes };
}
