// The chain tip from `GET /extended`, which answers 304 while the tip is unchanged (its ETag is the tip's
// index block hash): a long-lived client asks "still the same?" and the answer costs almost nothing.
import type { ChainTip } from '../core/domain';
import { HiroResponseError } from './errors';
import type { HiroHttp } from './http';
import { describeRequest, type HiroRequest } from './request';
import { extendedStatusSchema } from './schemas';

export const TIP_ROUTE = 'GET /extended';

export class TipReader {
  /** The tip as of the last full answer and its ETag: a 304 means it is still current. */
  private remembered: { etag: string; tip: ChainTip } | null = null;

  constructor(private readonly http: HiroHttp) {}

  async read(): Promise<ChainTip | null> {
    const request: HiroRequest = {
      route: TIP_ROUTE,
      path: '/extended',
      headers: this.remembered ? { 'if-none-match': this.remembered.etag } : {},
      expect: [304],
    };
    const answer = await this.http.get(request, extendedStatusSchema);
    if (!answer.ok) {
      if (this.remembered) return { ...this.remembered.tip };
      throw new HiroResponseError(
        { endpoint: describeRequest(request), route: TIP_ROUTE },
        304,
        'answered 304 Not Modified to a request that sent no If-None-Match.',
      );
    }
    const raw = answer.body.chain_tip;
    if (!raw) {
      this.remembered = null;
      return null;
    }
    const tip: ChainTip = {
      height: raw.block_height,
      hash: raw.block_hash,
      indexBlockHash: raw.index_block_hash,
      ...(raw.burn_block_height === undefined ? {} : { burnHeight: raw.burn_block_height }),
    };
    const etag = answer.headers.get('etag');
    this.remembered = etag ? { etag, tip } : null;
    return { ...tip };
  }
}
