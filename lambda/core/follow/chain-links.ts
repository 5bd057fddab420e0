// Whether the next block builds on the cursor block: the check that finds a reorg before anything is built on
// a replaced block. With the block's parent hash it is one comparison. Without one (once Hiro has retired
// every route that gives a parent hash, a block is known only through its v3 transaction list), the cursor
// block is looked up by hash instead, after the next block was read: still canonical means no reorg reached
// it. That costs a request per block and cannot see through an empty block nothing names, hence the warning.
import { UNKNOWN_BLOCK_HASH, type Block } from '../domain';
import type { ChainApi, Cursor, Telemetry } from '../ports';

export class ChainLinks {
  private warned = false;

  constructor(
    private readonly chain: ChainApi,
    private readonly telemetry: Telemetry,
  ) {}

  async buildsOn(block: Block, cursor: Pick<Cursor, 'hash'>): Promise<boolean> {
    if (block.header.parentHash !== null) return block.header.parentHash === cursor.hash;
    this.warnOnce(block.header.height);
    if (cursor.hash === UNKNOWN_BLOCK_HASH) return true;
    const header = await this.chain.getBlockHeader(cursor.hash);
    return header !== null && header.hash.toLowerCase() === cursor.hash.toLowerCase();
  }

  private warnOnce(height: number): void {
    if (this.warned) return;
    this.warned = true;
    this.telemetry.log(
      'warn',
      'reorg checks are weaker: the API gives no parent hash (its v2 block routes are retired); each block is checked by asking whether the block before it is still canonical, and not at all after an empty block',
      { blockHeight: height },
    );
  }
}
