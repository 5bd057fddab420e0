// Blocks and headers through whichever routes are left: the v2 routes while they answer; once Hiro retires
// them (410), the v3 transaction list with headers from the v3 block routes; and where those are missing or
// unreadable, headers from the transaction list alone (no parent hash, so the core checks links by hash).
import type { Block, BlockHeader } from '../core/domain';
import type { RouteMemory } from '../core/follow/missing-routes';
import { BLOCK_TRANSACTIONS_ROUTE, readBlock } from './block-reader';
import { V3BlockHeaders } from './block-headers-v3';
import { readBlockV3, readHeaderV3 } from './block-reader-v3';
import { DEPRECATED_ROUTES, withSuccessor } from './deprecations';
import { HiroInconsistentDataError } from './errors';
import type { HiroHttp } from './http';
import { toBlockHeader } from './mappers';
import type { ResolvedHiroOptions } from './options';
import { blockSchema } from './schemas';

const BLOCK_ROUTE = DEPRECATED_ROUTES.block;

export class BlockSource {
  readonly v3Headers: V3BlockHeaders;
  /** The newest block time seen: it dates an empty block when no route names its time. */
  private latestTime = 0;
  private firstRead: Promise<unknown> | null = null;

  constructor(
    private readonly http: HiroHttp,
    private readonly options: Pick<ResolvedHiroOptions, 'now' | 'log'>,
    onUnreadable: (route: string, problem: string) => void,
    /** The routes the process found missing or unusable: the v3 block routes among them are not asked. */
    routes: RouteMemory,
  ) {
    this.v3Headers = new V3BlockHeaders(http, onUnreadable, routes);
  }

  /** `signal` aborted: the block's page reads not yet answered give up (the scan is stopping). */
  async getBlock(height: number, signal?: AbortSignal): Promise<Block | null> {
    // The scan reads several blocks at once. Until the process knows whether the v2 list is served or retired,
    // the first read goes alone, so that a retired route costs one 410, not one per block in flight; once it
    // knows (a warm container's later runs), a loop turn's two new blocks are asked together: one round trip.
    if (this.firstRead && !this.http.deprecations.known(BLOCK_TRANSACTIONS_ROUTE)) await this.firstRead.catch(() => undefined);
    signal?.throwIfAborted();
    const reading = this.readBlock(height, this.http.withSignal(signal));
    this.firstRead ??= reading;
    return reading;
  }

  private async readBlock(height: number, http: HiroHttp): Promise<Block | null> {
    const block = await withSuccessor(
      this.http.deprecations,
      BLOCK_TRANSACTIONS_ROUTE,
      () => readBlock(http, height, (h) => this.getBlockHeader(h), undefined, this.expected(height)),
      () =>
        readBlockV3(http, height, { readHeader: (h) => this.headerForBlock(h), fallbackTime: this.fallbackTime }).catch((error: unknown) => {
          // A header that disagrees with the block's transactions may be from before a reorg: none is reused.
          if (error instanceof HiroInconsistentDataError) this.v3Headers.forget();
          throw error;
        }),
      this.log,
    );
    this.seen(block?.header ?? null);
    return block;
  }

  /**
   * What the v3 list's pages already read say of block `height` (no request), so that its later pages go out beside
   * the first; not until the process knows the v2 list answers, so that a retired list still costs one 410.
   */
  private expected(height: number): BlockHeader | undefined {
    return this.http.deprecations.known(BLOCK_TRANSACTIONS_ROUTE) ? this.v3Headers.known(height) : undefined;
  }

  async getBlockHeader(heightOrHash: number | string): Promise<BlockHeader | null> {
    const param = blockPathParam(heightOrHash);
    const header = await withSuccessor(
      this.http.deprecations,
      BLOCK_ROUTE,
      () => this.v2Header(param),
      async () => {
        const v3 = await this.v3Headers.byId(param);
        return v3 !== undefined ? v3 : readHeaderV3(this.http, param, this.fallbackTime);
      },
      this.log,
    );
    return this.seen(header);
  }

  /**
   * The header readBlockV3 pairs with the block's transactions: the v3 block list's (30 blocks a request),
   * else the v2 route's while it answers (one a block), else undefined (the header the transactions tell).
   */
  private async headerForBlock(height: number): Promise<BlockHeader | null | undefined> {
    const v3 = await this.v3Headers.forBlock(height);
    if (v3 !== undefined || this.http.deprecations.isRetired(BLOCK_ROUTE)) return v3;
    return this.getBlockHeader(height);
  }

  private async v2Header(param: string): Promise<BlockHeader | null> {
    const answer = await this.http.get({ route: BLOCK_ROUTE, path: `/extended/v2/blocks/${param}`, expect: [404] }, blockSchema);
    return answer.ok ? toBlockHeader(answer.body) : null;
  }

  private readonly fallbackTime = () => this.latestTime || Math.floor(this.options.now() / 1000);

  private readonly log = (level: 'warn', message: string, attributes: Record<string, unknown>) => this.options.log(level, message, attributes);

  private seen(header: BlockHeader | null): BlockHeader | null {
    if (header && header.time > this.latestTime) this.latestTime = header.time;
    return header;
  }
}

export function checkHeight(height: number): number {
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
