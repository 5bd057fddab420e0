// The Hiro adapter of the ChainApi port: each operation is one or a few requests through HiroHttp, its
// answers validated and mapped to domain types. Which routes are read, in which order, and their fallbacks:
// docs/api-routes.md.
import type { ApiDeprecation, NodeTip } from '../core/domain';
import type { RouteMemory } from '../core/follow/missing-routes';
import type { ChainApi, TxReadRequest } from '../core/ports';
import type { SubjectFeedApi } from '../core/follow/subject-feeds';
import { readPastBalances } from './balances';
import { BlockSource, checkHeight } from './block-source';
import { readContractStatuses } from './contract-statuses';
import { V3_ROUTES } from './deprecations';
import type { EventReaderContext } from './event-reader';
import { HiroHttp, type ApiStats } from './http';
import { resolveHiroOptions, type HiroClientOptions, type ResolvedHiroOptions } from './options';
import { nodeInfoSchema } from './schemas';
import { TipReader } from './tip-reader';
import { readTokenMetadata } from './token-metadata';
import { readTransactions } from './transaction-reads';
import { createMempoolReader } from './mempool-reader';
import { readFtBalancesNow, readFtTransfers, readStxBalanceNow, readStxTransfers, type StxBalanceNow, type TransferPage } from './principal-reads';
import { HiroSubjectFeeds, SUBJECT_ROUTES } from './subject-feeds';
import { TX_MULTIPLE_ROUTE } from './event-reader';

export { CONTRACT_STATUS_BATCH } from './contract-statuses';

export type HiroClient = ChainApi & {
  stats(): ApiStats;
  takeApiDeprecations(): ApiDeprecation[];
  /** The network the API serves, from the node's chain id; `unknown` with the id for anything else. */
  getNetwork(): Promise<{ network: 'mainnet' | 'testnet' | 'unknown'; chainId: number }>;
  /** The per-subject routes: a contract's logs, a principal's transactions, transfers and balances now. */
  subjects: SubjectReads;
};

export interface SubjectReads extends SubjectFeedApi {
  stxTransfers(principal: string, direction: 'inbound' | 'outbound', cursor: string | null): Promise<TransferPage | null>;
  ftTransfers(principal: string, assetId: string, cursor: string | null): Promise<TransferPage | null>;
  stxBalance(principal: string): Promise<StxBalanceNow>;
  ftBalances(principal: string): Promise<Map<string, bigint>>;
}

/** Chain ids as `/v2/info` reports them in `network_id` (the same as @stacks/network's ChainId). */
export const CHAIN_IDS = { mainnet: 1, testnet: 0x8000_0000 } as const;

export function createHiroClient(options: HiroClientOptions = {}): HiroClient {
  const resolved = resolveHiroOptions(options);
  const http = new HiroHttp(resolved);
  const unreadable: ApiDeprecation[] = [];
  const routes = missingRoutes(resolved);
  const blocks = new BlockSource(
    http,
    resolved,
    (route, problem) => {
      resolved.log('warn', 'Hiro answered a v3 block route in a shape stacks-watch cannot read; using the transaction list instead', {
        endpoint: route,
        problem,
      });
      unreadable.push({ route, replacement: V3_ROUTES.blockTransactions, gone: false, unreadable: true, detail: problem });
    },
    routes,
  );
  const tip = new TipReader(http);
  const events: EventReaderContext = { http, baseUrl: resolved.baseUrl, log: resolved.log };

  return {
    stats: () => http.stats(),
    getNetwork: () => readNetwork(http),
    getNodeTip: () => readNodeTip(http),
    // While the v3 block list serves this client's headers, its newest page is the tip (and the next blocks' headers).
    getTip: async () => (blocks.v3Headers.serving ? ((await blocks.v3Headers.tip()) ?? tip.read()) : tip.read()),
    getContractStatuses: (contractIds) => readContractStatuses(http, contractIds),
    getBlock: (height, signal) => blocks.getBlock(checkHeight(height), signal),
    getBlockHeader: (heightOrHash) => blocks.getBlockHeader(heightOrHash),
    getTransactionEvents: (txs: readonly TxReadRequest[], signal?: AbortSignal) => readTransactions({ ...events, http: http.withSignal(signal) }, txs),
    getBalances: (principal, atHeight, assets) => readPastBalances(http, principal, checkHeight(atHeight), assets ?? ['stx'], resolved.log),
    getTokenMetadata: (assetId) => readTokenMetadata(http, assetId),
    takeApiDeprecations: () => [...http.deprecations.take(), ...unreadable.splice(0)],
    mempool: createMempoolReader(events, routes, (notice) => unreadable.push(notice)),
    subjects: subjectReads(http, blocks, resolved.now, resolved.baseUrl.href),
  };
}

/**
 * The routes the process found missing or unusable on this client's API, as its runner keeps them across the
 * clients it builds: a route found so is asked again after an hour, and the log says when it answers again.
 */
function missingRoutes(resolved: ResolvedHiroOptions): RouteMemory {
  const memory = resolved.missingRoutes.at(resolved.baseUrl.href, resolved.now);
  return {
    ...memory,
    answered: (route) => {
      const back = memory.answered(route);
      if (back) resolved.log('info', `the API answers ${route} again: reading it as before`, { endpoint: route });
      return back;
    },
  };
}

/** The Stacks node's own tips from `/v2/info`; an answer without them is an error naming what is missing. */
async function readNodeTip(http: HiroHttp): Promise<NodeTip> {
  const body = await http.getBody({ route: 'GET /v2/info', path: '/v2/info' }, nodeInfoSchema);
  if (body.stacks_tip_height === undefined || body.burn_block_height === undefined) {
    throw new Error('GET /v2/info answered without stacks_tip_height or burn_block_height');
  }
  return { stacksTipHeight: body.stacks_tip_height, burnHeight: body.burn_block_height };
}

async function readNetwork(http: HiroHttp): Promise<{ network: 'mainnet' | 'testnet' | 'unknown'; chainId: number }> {
  const body = await http.getBody({ route: 'GET /v2/info', path: '/v2/info' }, nodeInfoSchema);
  const chainId = body.network_id;
  const network = chainId === CHAIN_IDS.mainnet ? 'mainnet' : chainId === CHAIN_IDS.testnet ? 'testnet' : 'unknown';
  return { network, chainId };
}

function subjectReads(http: HiroHttp, blocks: BlockSource, now: () => number, api: string): SubjectReads {
  const feeds = new HiroSubjectFeeds(http, now);
  // The newest block list page serves the tip, the block scan's next headers and the per-subject header chain alike.
  blocks.v3Headers.onNewestPage = (body) => feeds.keepNewestPage(body);
  return {
    headerRoute: feeds.headerRoute,
    api,
    batchRoute: SUBJECT_ROUTES.transactionBatch,
    headerChain: (fromHeight) => feeds.headerChain(fromHeight),
    tip: () => blocks.v3Headers.tip(),
    contractLogs: (contractId, cursor, ifNoneMatch) => feeds.contractLogs(contractId, cursor, ifNoneMatch),
    principalTransactions: (principal, cursor, ifNoneMatch) => feeds.principalTransactions(principal, cursor, ifNoneMatch),
    transactions: (txIds) => feeds.transactions(txIds),
    eventsRetired: () => http.deprecations.isRetired(TX_MULTIPLE_ROUTE),
    stxTransfers: (principal, direction, cursor) => readStxTransfers(http, principal, direction, cursor),
    ftTransfers: (principal, assetId, cursor) => readFtTransfers(http, principal, assetId, cursor),
    stxBalance: (principal) => readStxBalanceNow(http, principal),
    ftBalances: (principal) => readFtBalancesNow(http, principal),
  };
}
