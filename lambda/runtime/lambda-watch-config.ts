// Which watch config a Lambda run uses: WATCH_CONFIG when set (tests, emergencies), else the live versioned
// object the stack created (read each run, refused when bad), else a file (a handler run outside the stack).
import { readFile } from 'node:fs/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { OperatorChannel, Telemetry } from '../core/ports';
import { LiveWatchConfig, type LiveConfig } from '../config/live-watch-config';
import { parseWatchConfigText, WatchConfigError } from '../config/watch-config';
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
    throw new Error(`cannot read the watch config file ${path} (${(error as NodeJS.ErrnoException).code}); set WATCH_CONFIG_BUCKET (the stack does), or WATCH_CONFIG`);
  }
}

/** Kept per container: the live config remembers the version in use and the ETag last seen. */
export class LambdaWatchConfig {
  private live: LiveWatchConfig | undefined;
  private fixed: LiveConfig | undefined;

  constructor(private readonly clients: WatchConfigClients) {}

  async current(settings: LambdaSettings, operator: OperatorChannel, log: Telemetry['log']): Promise<LiveConfig> {
    if (settings.watchConfigText) return (this.fixed ??= parseFixed(settings.watchConfigText, 'WATCH_CONFIG'));
    const store = settings.watchConfigStore;
    if (!store) return (this.fixed ??= parseFixed(await readConfigFile(settings.watchConfigPath), settings.watchConfigPath));
    this.live ??= new LiveWatchConfig({
      source: createS3WatchConfigSource({ client: this.clients.s3(), ...store }),
      memo: createDynamoConfigMemoStore(this.clients.doc, settings.tableName),
    });
    return this.live.current({ operator, log });
  }
}

function parseFixed(text: string, source: string): LiveConfig {
  const result = parseWatchConfigText(text, source);
  if (!result.ok) throw new WatchConfigError(result.problems, source);
  return { config: result.config, versionId: source };
}
