// The Hiro adapter of the ChainApi port: each operation is one or a few requests through HiroHttp, its
// answers validated and mapped to domain types.
import type { ApiDeprecation, Block, BlockHeader, ChainTip, ContractStatus } from '../core/domain';
import type { ChainApi } from '../core/ports';
import { BLOCK_TRANSACTIONS_ROUTE, readBlock } from './block-reader';
import { readBlockV3, readHeaderV3 } from './block-reader-v3';
import { DEPRECATED_ROUTES, withSuccessor } from './deprecations';
import { HiroResponseError } from './errors';
import { readTransactionEvents, TX_MULTIPLE_ROUTE } from './event-reader';
import { readTransactionEventsV3 } from './event-reader-v3';
import { HiroHttp, type ApiStats } from './http';
import { toBlockHeader } from './mappers';
import { resolveHiroOptions, type HiroClientOptions } from './options';
import { describeRequest, type HiroRequest } from './request';
import { blockSchema, contractStatusesSchema, extendedStatusSchema, nodeInfoSchema } from './schemas';

export type HiroClient = ChainApi & {
  stats(): ApiStats;
  takeApiDeprecations(): ApiDeprecation[];
  /** The network the API serves, from the node's chain id; `unknown` with the id for anything else. */
  getNetwork(): Promise<{ network: 'mainnet' | 'testnet' | 'unknown'; chainId: number }>;
};

/** Chain ids as `/v2/info` reports them in `network_id` (the same as @stacks/network's ChainId). */
export const CHAIN_IDS = { mainnet: 1, testnet: 0x8000_0000 } as const;

/** Ids per status call: the API has no maximum, but URLs past ~16 KiB get 431. */
export const CONTRACT_STATUS_BATCH = 100;

const TIP_ROUTE = 'GET /extended';
const INFO_ROUTE = 'GET /v2/info';
const BLOCK_ROUTE = DEPRECATED_ROUTES.block;
const CONTRACT_STATUS_ROUTE = 'GET /extended/v2/smart-contracts/status';

export function createHiroClient(options: HiroClientOptions = {}): HiroClient {
  const resolved = resolveHiroOptions(options);
  const http = new HiroHttp(resolved);
  // The tip as of the last full answer and its ETag: a 304 means it is still current.
  let remembered: { etag: string; tip: ChainTip } | null = null;

  // The newest block time seen: it dates an empty block once no header route is left (see readBlockV3);
  // before any block is seen, the present is the nearest time known.
  let latestTime = 0;
  const fallbackTime = () => latestTime || Math.floor(resolved.now() / 1000);
  const seen = (header: BlockHeader | null): BlockHeader | null => {
    if (header && header.time > latestTime) latestTime = header.time;
    return header;
  };
  const log = (level: 'warn', message: string, attributes: Record<string, unknown>) => resolved.log(level, message, attributes);

  async function getV2BlockHeader(heightOrHash: number | string): Promise<BlockHeader | null> {
    const request: HiroRequest = {
      route: BLOCK_ROUTE,
      path: `/extended/v2/blocks/${blockPathParam(heightOrHash)}`,
      expect: [404],
    };
    const answer = await http.get(request, blockSchema);
    return answer.ok ? toBlockHeader(answer.body) : null;
  }

  async function getBlockHeader(heightOrHash: number | string): Promise<BlockHeader | null> {
    const param = blockPathParam(heightOrHash);
    return seen(
      await withSuccessor(
        http.deprecations,
        BLOCK_ROUTE,
        () => getV2BlockHeader(heightOrHash),
        // The v3 block routes' shapes are not confirmed: the v3 transaction list stands in (no parent hash).
        () => readHeaderV3(http, param, fallbackTime),
        log,
      ),
    );
  }

  async function getBlock(height: number): Promise<Block | null> {
    const block = await withSuccessor(
      http.deprecations,
      BLOCK_TRANSACTIONS_ROUTE,
      () => readBlock(http, height, getBlockHeader),
      () =>
        readBlockV3(http, height, {
          // While the v2 header route answers, it supplies the parent hash (one request more per block).
          readHeader: http.deprecations.isRetired(BLOCK_ROUTE) ? null : getBlockHeader,
          fallbackTime,
        }),
      log,
    );
    seen(block?.header ?? null);
    return block;
  }

  return {
    stats: () => http.stats(),

    async getNetwork() {
      const body = await http.getBody({ route: INFO_ROUTE, path: '/v2/info' }, nodeInfoSchema);
      const chainId = body.network_id;
      const network = chainId === CHAIN_IDS.mainnet ? 'mainnet' : chainId === CHAIN_IDS.testnet ? 'testnet' : 'unknown';
      return { network, chainId };
    },

    async getTip() {
      const request: HiroRequest = {
        route: TIP_ROUTE,
        path: '/extended',
        headers: remembered ? { 'if-none-match': remembered.etag } : {},
        expect: [304],
      };
      const answer = await http.get(request, extendedStatusSchema);
      if (!answer.ok) {
        if (remembered) return { ...remembered.tip };
        throw new HiroResponseError(
          { endpoint: describeRequest(request), route: TIP_ROUTE },
          304,
          'answered 304 Not Modified to a request that sent no If-None-Match.',
        );
      }
      const raw = answer.body.chain_tip;
      if (!raw) {
        remembered = null;
        return null;
      }
      const tip: ChainTip = { height: raw.block_height, hash: raw.block_hash, indexBlockHash: raw.index_block_hash };
      const etag = answer.headers.get('etag');
      remembered = etag ? { etag, tip } : null;
      return { ...tip };
    },

    async getContractStatuses(contractIds) {
      const ids = [...new Set(contractIds)];
      const batches: string[][] = [];
      for (let i = 0; i < ids.length; i += CONTRACT_STATUS_BATCH) batches.push(ids.slice(i, i + CONTRACT_STATUS_BATCH));
      const answers = await Promise.all(
        batches.map((batch) =>
          http.getBody(
            {
              route: CONTRACT_STATUS_ROUTE,
              path: '/extended/v2/smart-contracts/status',
              // One key per id: the API reads a comma-separated list as one malformed id (400).
              query: batch.map((id) => ['contract_id', id] as const),
            },
            contractStatusesSchema,
          ),
        ),
      );
      const statuses = new Map<string, ContractStatus>();
      for (const [index, batch] of batches.entries()) {
        const body = answers[index]!;
        for (const contractId of batch) {
          const entry = body[contractId];
          // The API answers one key per id it has a deploy for; an id it leaves out is one it knows no
          // deploy of, which is exactly what found:false says (and a dropped deploy reads the same way).
          if (!entry || !entry.found) {
            statuses.set(contractId, { contractId, found: false, status: null, txId: null, blockHeight: null });
          } else {
            statuses.set(contractId, {
              contractId,
              found: true,
              status: entry.result.status,
              txId: entry.result.tx_id,
              blockHeight: entry.result.block_height ?? null,
            });
          }
        }
      }
      return statuses;
    },

    getBlock: (height) => getBlock(checkHeight(height)),

    getBlockHeader,

    getTransactionEvents: (txs) => {
      const context = { http, baseUrl: resolved.baseUrl, log: resolved.log };
      return withSuccessor(
        http.deprecations,
        TX_MULTIPLE_ROUTE,
        () => readTransactionEvents(context, txs),
        () => readTransactionEventsV3(context, txs),
        log,
      );
    },

    takeApiDeprecations: () => http.deprecations.take(),
  };
}

function checkHeight(height: number): number {
  if (!Number.isSafeInteger(height) || height < 0) {
    throw new RangeError(`block height must be a whole number of at least 0, got ${height}`);
  }
  return height;
}

/** A height or a block hash (0x optional); anything else is refused before it can reach a URL path. */
function blockPathParam(heightOrHash: number | string): string {
  if (typeof heightOrHash === 'number') return String(checkHeight(heightOrHash));
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(heightOrHash)) {
    throw new RangeError(`block hash must be 64 hex digits (0x optional), got "${heightOrHash}"`);
  }
  return heightOrHash;
}
