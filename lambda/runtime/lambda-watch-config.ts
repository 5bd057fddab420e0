// Which watch config a Lambda run uses: WATCH_CONFIG when set (tests, emergencies), else the live versioned
// object the stack created (read each run, refused when bad), else a file (a handler run outside the stack).
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
 * How often a warm container in the loop mode asks the store: a turn every few seconds would otherwise pay a
 * GET each (most of 305,000 a month), while a change is promised within a schedule interval, a minute.
 */
export const LOOP_CONFIG_CHECK_MS = 60_000;

/** Kept per container: the live config remembers the version in use and the ETag last seen. */
export class LambdaWatchConfig {
  private live: LiveWatchConfig | undefined;
  private fixed: LiveConfig | undefined;
  private lastCheck: { atMs: number; config: LiveConfig } | undefined;

  constructor(
    private readonly clients: WatchConfigClients,
    private readonly now: () => number = Date.now,
  ) {}

  /** `decimalsFor`: where the run reads and keeps the token decimals a version needs (its state and API client). */
  async current(settings: LambdaSettings, operator: OperatorChannel, log: Telemetry['log'], decimalsFor?: TokenDecimalsFor): Promise<LiveConfig> {
    // The ceilings of this function's memory: a version it could not hold is refused, never loaded.
    const ceilings = configCeilings(settings.functionMemoryMb);
    if (settings.watchConfigText) return (this.fixed ??= await parseFixed(settings.watchConfigText, 'WATCH_CONFIG', ceilings, decimalsFor));
    const store = settings.watchConfigStore;
    if (!store) return (this.fixed ??= await parseFixed(await readConfigFile(settings.watchConfigPath), settings.watchConfigPath, ceilings, decimalsFor));
    const nowMs = this.now();
    if (settings.loop && this.lastCheck && nowMs - this.lastCheck.atMs < LOOP_CONFIG_CHECK_MS) return this.lastCheck.config;
    this.live ??= new LiveWatchConfig({
      source: createS3WatchConfigSource({ client: this.clients.s3(), ...store, maxBytes: ceilings.bytes }),
      memo: createDynamoConfigMemoStore(this.clients.doc, settings.tableName),
      ceilings,
    });
    const config = await this.live.current({ operator, log, ...(decimalsFor ? { decimalsFor } : {}) });
    this.lastCheck = { atMs: nowMs, config };
    return config;
  }
}

async function parseFixed(text: string, source: string, ceilings: ConfigCeilings, decimalsFor: TokenDecimalsFor | undefined): Promise<LiveConfig> {
  const result = await parseWithTokenDecimals(text, source, { ceilings, decimalsFor });
  if (isUnread(result)) throw new TokenDecimalsUnreadError(unreadMessage(source, result), { cause: result.unread.cause });
  if (!result.ok) throw new WatchConfigError(result.problems, source);
  return { config: result.config, versionId: source };
}
