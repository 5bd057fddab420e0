// Block headers from the v3 block routes (API 9.7.0), once the v2 header route is retired. The newest-first
// list gives 30 headers a request, so a run that catches up or follows the tip pays about one request per
// 30 blocks for them; a block further below than the list is worth walking to is read on its own
// (`/extended/v3/blocks/{height}`). List summaries do not name the parent: within one page each block's
// parent is the block below it (one answer is one view of the canonical chain); the lowest of a page is
// left without one, and the core checks that link by hash.
//
// Where the routes are missing (an API before 9.7.0) or answer a shape this client cannot read, every
// method answers `undefined` from then on, the caller falls back to the transaction list, and the operator
// hears of it. "From then on" is the process's memory (RouteMemory, kept by its runner across the clients it
// builds, so a warm Lambda container's later invocations do not ask again), for an hour: then one request asks
// the routes again, and an upgraded API serves headers from the list again.
import type { BlockHeader, ChainTip } from '../core/domain';
import type { RouteMemory } from '../core/follow/missing-routes';
import * as z from '../zod-mini';
import type { HiroHttp } from './http';
import type { HiroRequest } from './request';
import { readV3BlockHeader, readV3BlockListPage, readV3Tip } from './schemas-v3-blocks';

export const V3_BLOCK_ROUTES = {
  list: 'GET /extended/v3/blocks',
  block: 'GET /extended/v3/blocks/{height_or_hash}',
} as const;

/** The list's maximum page size. */
export const V3_BLOCK_LIST_LIMIT = 30;
/** How many list pages a block may be below the newest and still be found by walking down to it. */
export const MAX_WALK_PAGES = 20;

/** One page of the v3 block list, newest first from `cursor` (null: from the tip); a 404 is an API without the list. */
export function v3BlockListRequest(cursor: string | null): HiroRequest {
  return {
    route: V3_BLOCK_ROUTES.list,
    path: '/extended/v3/blocks',
    query: [['limit', V3_BLOCK_LIST_LIMIT], ...(cursor === null ? [] : [['cursor', cursor] as const])],
    expect: [404],
  };
}
/** Headers kept below the block last asked for (the scan asks in ascending order, a few at once). */
const KEEP_BELOW = 64;

const anyBody = z.unknown();

export class V3BlockHeaders {
  /** A v3 block route has answered this client, so the routes exist. */
  private answered = false;
  private readonly window = new Map<number, BlockHeader>();
  /** The cursor to the page below the lowest one read; null before the first page or at the list's end. */
  private below: string | null = null;
  private lowest = Infinity;
  private newest = -Infinity;
  /** List reads one at a time: several blocks are read at once, and one page serves them all. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Told of every newest page read, as served: the per-subject header chain reuses the page the tip came from. */
  onNewestPage: (body: unknown) => void = () => {};

  constructor(
    private readonly http: HiroHttp,
    /** Told, with what was wrong, when the routes turn out unusable (once until they are asked again). */
    private readonly onUnusable: (route: string, problem: string) => void,
    /** The routes the process found missing or unusable: the v3 block routes are not asked while among them. */
    private readonly routes: RouteMemory,
  ) {}

  /** The routes were found missing or unusable (by this client or an earlier one of the process) within the hour. */
  private get unusable(): boolean {
    return this.routes.skips(V3_BLOCK_ROUTES.list) || this.routes.skips(V3_BLOCK_ROUTES.block);
  }

  /** Whether the list has answered this client and still serves it (then it is worth reading the tip from). */
  get serving(): boolean {
    return !this.unusable && this.newest > -Infinity;
  }

  /** The header the list pages already read hold for `height`, without a request (what the block's own pages should say). */
  known(height: number): BlockHeader | undefined {
    return this.unusable ? undefined : this.window.get(height);
  }

  /** The header of block `height` for reading that block; null when the API knows no such block. */
  forBlock(height: number): Promise<BlockHeader | null | undefined> {
    const run = this.queue.then(() => this.findInList(height));
    this.queue = run.catch(() => undefined);
    return run.then((found) => (found === 'not listed' ? this.byId(String(height)) : found));
  }

  /** A header by height or hash from `/extended/v3/blocks/{height_or_hash}`: fresh, with its parent. */
  async byId(heightOrHash: string): Promise<BlockHeader | null | undefined> {
    if (this.unusable) return undefined;
    const request: HiroRequest = { route: V3_BLOCK_ROUTES.block, path: `/extended/v3/blocks/${heightOrHash}`, expect: [404] };
    const answer = await this.http.get(request, anyBody);
    if (!answer.ok) return this.notFound();
    const header = readV3BlockHeader(answer.body);
    if (!header.ok) return this.giveUp(request.route, header.problem);
    this.serves(request.route);
    return header.value;
  }

  /**
   * A 404 is a block the API does not know (or no longer canonical) once a v3 block route has answered; before
   * that it may be an API without them, which the list tells (and the page it reads serves the next blocks).
   */
  private async notFound(): Promise<null | undefined> {
    if (this.answered) return null;
    const probe = this.queue.then(() => this.readPage(null));
    this.queue = probe.catch(() => undefined);
    return (await probe) === 'unusable' ? undefined : null;
  }

  /** The chain tip as the newest list page tells it (the page is kept for the blocks that follow). */
  tip(): Promise<ChainTip | null | undefined> {
    const run = this.queue.then(() => this.readPage(null));
    this.queue = run.catch(() => undefined);
    return run.then((tip) => (tip === 'unusable' ? undefined : tip));
  }

  private async findInList(height: number): Promise<BlockHeader | null | undefined | 'not listed'> {
    if (this.unusable) return undefined;
    this.prune(height);
    if (!this.window.has(height) && height > this.newest) {
      if ((await this.readPage(null)) === 'unusable') return undefined;
      // The newest page is below it: the API knows no such block yet.
      if (height > this.newest) return null;
    }
    while (!this.window.has(height) && height < this.lowest && this.below !== null && this.lowest - height <= MAX_WALK_PAGES * V3_BLOCK_LIST_LIMIT) {
      if ((await this.readPage(this.below)) === 'unusable') return undefined;
    }
    return this.window.get(height) ?? 'not listed';
  }

  private async readPage(cursor: string | null): Promise<ChainTip | null | 'unusable'> {
    if (this.unusable) return 'unusable';
    const request = v3BlockListRequest(cursor);
    const answer = await this.http.get(request, anyBody);
    if (!answer.ok) return this.giveUp(request.route, 'answered 404: this API has no v3 block list (it came in API 9.7.0)') ?? 'unusable';
    const page = readV3BlockListPage(answer.body);
    if (!page.ok) return this.giveUp(request.route, page.problem) ?? 'unusable';
    this.serves(request.route);
    const { headers, next } = page.value;
    if (cursor === null) {
      this.onNewestPage(answer.body);
      // A fresh view from the top replaces whatever an older one said.
      this.window.clear();
      this.newest = headers[0]?.height ?? -1;
      this.lowest = Infinity;
    }
    for (const [index, header] of headers.entries()) {
      const parentHash = header.parentHash ?? headers[index + 1]?.hash ?? null;
      this.window.set(header.height, { ...header, parentHash });
    }
    if (headers.length > 0) this.lowest = Math.min(this.lowest, headers.at(-1)!.height);
    this.below = next;
    if (cursor !== null) return null;
    const top = readV3Tip(page.value.rawTop);
    return top;
  }

  /** Drops every header read: a block that disagreed with one is read against a fresh view next time. */
  forget(): void {
    this.window.clear();
    this.newest = -Infinity;
    this.lowest = Infinity;
    this.below = null;
  }

  private prune(height: number): void {
    for (const kept of this.window.keys()) if (kept < height - KEEP_BELOW) this.window.delete(kept);
  }

  /** `route` answered in a shape this client reads: the routes exist (again, if they were missing). */
  private serves(route: string): void {
    this.answered = true;
    this.routes.answered(route);
  }

  private giveUp(route: string, problem: string): undefined {
    if (!this.unusable) {
      this.routes.found(route);
      this.onUnusable(route, problem);
    }
    this.window.clear();
    return undefined;
  }
}
