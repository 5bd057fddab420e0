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
import { requestsInFlightFor } from './memory-bounds';
import { createHiroClient, type HiroClient, type HiroClientOptions, type RetiredRoutes, type RouteMemory } from '../hiro';
import { createDynamoStateStore } from '../adapters/dynamodb';
import { readApiSettings, type ApiSettings } from './api-env';
import { emilyFromEnv } from './emily-env';
import { TURN_MAX_PAUSE_MS } from './loop-invocation';

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
  /** A queued loop turn's client ends the run rather than wait long on the API's rate limit (TURN_MAX_PAUSE_MS). */
  loopTurn?: boolean;
  operator: OperatorChannel;
  /** The client's log (the handler's logger). */
  hiroLog: NonNullable<HiroClientOptions['log']>;
  /** The routes the container found retired, shared by the clients of all its invocations. */
  retiredRoutes: RetiredRoutes;
  /** The routes the container found missing on an older API, shared likewise until their hourly re-check. */
  missingRoutes: MissingRoutes;
  /** The turns the container saw end on the rate limit (the operator is told when they keep coming). */
  rateBudgetStops?: RouteMemory['rateBudgetStops'];
  dynamo: DynamoDBClient;
  tableName: string;
  log: Telemetry['log'];
  /** The function's memory as Lambda tells it: a small function has fewer requests in flight (memory-bounds.ts). */
  functionMemoryMb?: number | undefined;
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
        maxPauseMs: options.loopTurn ? TURN_MAX_PAUSE_MS : undefined,
        retiredRoutes: options.retiredRoutes,
        missingRoutes: options.missingRoutes,
        rateBudgetStops: options.rateBudgetStops,
        ...requestsInFlightFor(options.functionMemoryMb),
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
