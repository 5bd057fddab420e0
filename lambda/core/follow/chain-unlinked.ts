// A chain that does not link: the API serves a block whose parent is not the block it serves one height
// below, and keeps doing so after a rescan from the fork point. A real reorg never looks like that (after it,
// the block below is the new one), so it is a broken or hostile API, and rewinding again cannot help: each
// rewind would rescan the same block, up to the run's block budget, thousands of writes and no error.
import type { BlockHeader } from '../domain';
import type { Cursor } from '../ports';

export interface UnlinkedBlock {
  height: number;
  hash: string;
  parentHash: string | null;
  /** The block the scan had at height - 1 (the cursor), which the API still serves there. */
  belowHash: string;
}

export class ChainUnlinkedError extends Error {
  override name = 'ChainUnlinkedError';
  constructor(readonly block: UnlinkedBlock) {
    super(
      `the API's chain does not link at block ${block.height}: block ${block.height} (${block.hash}) names parent ` +
        `${block.parentHash ?? '(none given)'}, but the block it serves at ${block.height - 1} is ${block.belowHash}, still after a rescan ` +
        `from the fork point. The API is serving inconsistent data; the cursor stays at ${block.height - 1} and the next run tries again.`,
    );
  }
}

/**
 * Remembers the last block that did not build on the cursor. The second time the same height fails to link
 * onto the same cursor block (the rescan from the fork point came back to it), it throws ChainUnlinkedError:
 * one rewind and one block rescanned, not hundreds.
 */
export class ChainLinkCheck {
  private last: UnlinkedBlock | null = null;

  /** Called when `header` does not build on `cursor`, before rewinding. */
  beforeRewind(header: BlockHeader, cursor: Pick<Cursor, 'hash'>): void {
    const unlinked: UnlinkedBlock = {
      height: header.height,
      hash: header.hash,
      parentHash: header.parentHash,
      belowHash: cursor.hash,
    };
    if (this.last && this.last.height === unlinked.height && this.last.belowHash === unlinked.belowHash) {
      throw new ChainUnlinkedError(unlinked);
    }
    this.last = unlinked;
  }
}
