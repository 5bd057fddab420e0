// The run's Hiro client and DynamoDB state, one of each per network, built when first asked: the live
// config asks for them before it is known which version (and so which network) the run uses, to read the
// token decimals a new version needs, and the run then uses the very same client, so those reads count in
// its request budget and its stats, and end at its deadline.
import type { DynamoDBClient as DynamoDBBaseClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Network } from '../core/domain';
import type { MissingRoutes } from '../core/follow/missing-routes';
import type { OperatorChannel, Telemetry } from '../core/ports';
import type { TokenDecimalsFor } from '../config/config-token-decimals';
import { createHiroClient, type HiroClient, type HiroClientOptions, type RetiredRoutes } from '../hiro';
import { createDynamoStateStore } from '../adapters/dynamodb';
import { readApiSettings, type ApiSettings } from './api-env';
import { emilyFromEnv } from './emily-env';

/**
 * Tokens whose metadata one run reads at most: a version naming more new tokens is taken a few runs later,
 * each run spending a few requests of its budget (50 a minute without an API key) on them.
 */
export const TOKEN_METADATA_READS_PER_RUN = 10;

/** The container's DynamoDB client: its document client, kept across invocations, is used as it is. */
type DynamoDBClient = DynamoDBBaseClient | DynamoDBDocumentClient;

export interface RunClientOptions {
  apiKey: string | undefined;
  deadlineMs: number;
  operator: OperatorChannel;
  /** The client's log (the handler's logger). */
  hiroLog: NonNullable<HiroClientOptions['log']>;
  /** The routes the container found retired, shared by the clients of all its invocations. */
  retiredRoutes: RetiredRoutes;
  /** The routes the container found missing on an older API, shared likewise until their hourly re-check. */
  missingRoutes: MissingRoutes;
  dynamo: DynamoDBClient;
  tableName: string;
  log: Telemetry['log'];
}

export function runClients(options: RunClientOptions) {
  const chains = new Map<Network, { chain: HiroClient; apiSettings: ApiSettings }>();
  const states = new Map<Network, ReturnType<typeof createDynamoStateStore>>();
  const api = (network: Network) => {
    let made = chains.get(network);
    if (!made) {
      const apiSettings = readApiSettings(process.env, options.apiKey, network);
      const chain = createHiroClient({
        ...apiSettings,
        log: options.hiroLog,
        operator: options.operator,
        deadline: () => options.deadlineMs,
        retiredRoutes: options.retiredRoutes,
        missingRoutes: options.missingRoutes,
      });
      made = { chain, apiSettings };
      chains.set(network, made);
    }
    return made;
  };
  const state = (network: Network) => {
    let made = states.get(network);
    if (!made) {
      made = createDynamoStateStore({ client: options.dynamo, tableName: options.tableName, network, log: options.log });
      states.set(network, made);
    }
    return made;
  };
  const emily = (network: Network) => emilyFromEnv(process.env, network, options.log);
  const decimalsFor: TokenDecimalsFor = (network) => ({ state: state(network), chain: api(network).chain, maxReads: TOKEN_METADATA_READS_PER_RUN });
  return { api, state, emily, decimalsFor };
}
