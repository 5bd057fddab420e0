// Which watch config a Lambda run uses: WATCH_CONFIG when set (tests, emergencies), else the live versioned
// object the stack created (read each run, refused when bad), else a file (a handler run outside the stack).
// In the loop mode only the schedule's ticks ask the store: a tick flags the version it finds current on the
// cursor item (lambda/adapters/dynamodb/watch-point-record.ts) when it changed, and a queued turn, which reads
// that item anyway, asks the store only when the flag names a version its container has not read.
import { readFile } from 'node:fs/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { OperatorChannel, Telemetry } from '../core/ports';
import { LiveWatchConfig, type LiveConfig } from '../config/live-watch-config';
import { WatchConfigError } from '../config/watch-config';
import { isUnread, parseWithTokenDecimals, TokenDecimalsUnreadError, unreadMessage, type TokenDecimalsFor } from '../config/config-token-decimals';
import { configCeilings, type ConfigCeilings } from '../core/watch-config/config-ceilings';
import { createS3WatchConfigSource } from '../adapters/aws/s3-watch-config';
import { createDynamoConfigMemoStore } from '../adapters/dynamodb/config-memo';
import type { LambdaSettings } from './lambda-env';

export interface WatchConfigClients {
  s3: () => S3Client;
  doc: DynamoDBDocumentClient;
}

/** What a run's log line says of the config in use. */
export function configLogFields(live: LiveConfig): Record<string, unknown> {
  return {
    watchConfigVersion: live.versionId,
    ...(live.rejected
      ? { watchConfigRejected: { versionId: live.rejected.versionId, problemCount: live.rejected.problemCount, problems: live.rejected.problems } }
      : {}),
  };
}

async function readConfigFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read the watch config file ${path} (${(error as NodeJS.ErrnoException).code}); set WATCH_CONFIG_BUCKET (the stack does), or WATCH_CONFIG`,
    );
  }
}

/**
 * A turn that asked the store for a flagged version and did not get it into use (its token decimals unread, or
 * the store a step ahead of the flag) asks again for that flag at most this often, as the schedule would.
 */
export const FLAGGED_RETRY_MS = 60_000;

/** Kept per container: the live config remembers the version in use and the ETag last seen. */
export class LambdaWatchConfig {
  private live: LiveWatchConfig | undefined;
  private fixed: LiveConfig | undefined;
  /** The config the store gave last, and the version the store called current then. */
  private last: { config: LiveConfig; storeVersion: string } | undefined;
  private asked: { versionId: string; atMs: number } | undefined;

  constructor(
    private readonly clients: WatchConfigClients,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `decimalsFor`: where the run reads and keeps the token decimals a version needs (its state and API client).
   * `askStore: false` (a loop turn): the config this container holds, without a request; a cold start asks.
   * `followingFlag` (a loop turn whose flag names a version this container has not read): the memo is read
   * again first, since the tick that flagged a refused version told the operator already.
   */
  async current(
    settings: LambdaSettings,
    operator: OperatorChannel,
    log: Telemetry['log'],
    decimalsFor?: TokenDecimalsFor,
    options: { askStore?: boolean; followingFlag?: boolean } = {},
  ): Promise<LiveConfig> {
    // The ceilings of this function's memory: a version it could not hold is refused, never loaded.
    const ceilings = configCeilings(settings.functionMemoryMb);
    if (settings.watchConfigText) return (this.fixed ??= await parseFixed(settings.watchConfigText, 'WATCH_CONFIG', ceilings, decimalsFor));
    const store = settings.watchConfigStore;
    if (!store) return (this.fixed ??= await parseFixed(await readConfigFile(settings.watchConfigPath), settings.watchConfigPath, ceilings, decimalsFor));
    if (options.askStore === false && this.last) return this.last.config;
    this.live ??= new LiveWatchConfig({
      source: createS3WatchConfigSource({ client: this.clients.s3(), ...store, maxBytes: ceilings.bytes }),
      memo: createDynamoConfigMemoStore(this.clients.doc, settings.tableName),
      ceilings,
    });
    const config = await this.live.current({ operator, log, ...(decimalsFor ? { decimalsFor } : {}) }, { rereadMemo: options.followingFlag === true });
    this.last = { config, storeVersion: config.rejected?.versionId ?? config.versionId };
    return config;
  }

  /** The version the store called current when this container last asked it; undefined off the store. */
  get storeVersion(): string | undefined {
    return this.last?.storeVersion;
  }

  /**
   * Whether a loop turn asks the store before its cycle: the ticks flagged a version other than the one this
   * container last found current (at most once a FLAGGED_RETRY_MS for the same flag).
   */
  followsFlag(flagged: string | null): boolean {
    if (flagged === null || this.last === undefined || flagged === this.last.storeVersion) return false;
    const nowMs = this.now();
    if (this.asked?.versionId === flagged && nowMs - this.asked.atMs < FLAGGED_RETRY_MS) return false;
    this.asked = { versionId: flagged, atMs: nowMs };
    return true;
  }
}

async function parseFixed(text: string, source: string, ceilings: ConfigCeilings, decimalsFor: TokenDecimalsFor | undefined): Promise<LiveConfig> {
  const result = await parseWithTokenDecimals(text, source, { ceilings, decimalsFor });
  if (isUnread(result)) throw new TokenDecimalsUnreadError(unreadMessage(source, result), { cause: result.unread.cause });
  if (!result.ok) throw new WatchConfigError(result.problems, source);
  return { config: result.config, versionId: source };
}
