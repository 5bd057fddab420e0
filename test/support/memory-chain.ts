// An in-memory ChainApi over a small chain model, for core tests: fast, deterministic, and counting the
// requests each operation would cost against the real API.
import { createHash } from 'node:crypto';
import type { AssetEvent, Block, BlockHeader, ChainTip, ContractLogEvent, ContractStatus, Transaction, TxEvents } from '../../lambda/core/domain';
import type { ChainApi } from '../../lambda/core/ports';

export interface ModelTx extends Transaction {
  logs?: ContractLogEvent[];
  /** Its asset events (a mint, a transfer), when a test gives them. */
  assets?: AssetEvent[];
}

export interface ModelBlock {
  height: number;
  hash: string;
  parentHash: string;
  time: number;
  txs: ModelTx[];
  /** The Bitcoin block it is anchored to, when a test gives one (the API's `burn_block_height`). */
  burnHeight?: number;
}

let txCounter = 0;
/** Start transaction ids over, so that two chains built alike have the same ids. */
export function resetTxIds(): void {
  txCounter = 0;
}
export const hash = (...parts: unknown[]) => '0x' + createHash('sha256').update(parts.join('|')).digest('hex');

/** A successful transaction of `txType` with a fresh id; mine() sets its tx_index. */
function newTx(txType: string, eventCount: number): ModelTx {
  return {
    txId: hash('tx', ++txCounter),
    txIndex: 0,
    txType,
    txStatus: 'success',
    sender: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7',
    eventCount,
  };
}

export function transfer(recipient: string, amount = '1000000', opts: Partial<ModelTx> = {}): ModelTx {
  return {
    ...newTx('token_transfer', 1),
    tokenTransfer: { recipient, amount, memo: '0x' },
    ...opts,
  };
}

export function contractCall(contractId: string, logs: { contractId?: string; repr: string; topic?: string }[], opts: Partial<ModelTx> = {}): ModelTx {
  return {
    ...newTx('contract_call', logs.length),
    contractId,
    logs: logs.map((l, i) => ({
      eventIndex: i,
      contractId: l.contractId ?? contractId,
      topic: l.topic ?? 'print',
      valueRepr: l.repr,
      valueHex: '0x' + Buffer.from(l.repr).toString('hex'),
    })),
    ...opts,
  };
}

export function coinbase(): ModelTx {
  return newTx('coinbase', 0);
}

export class MemoryChain implements ChainApi {
  blocks: ModelBlock[] = [];
  statuses = new Map<string, ContractStatus>();
  requests: Record<string, number> = {};
  private fork = 0;

  constructor(
    baseHeight = 100,
    baseCount = 1,
    private readonly startTime = 1_700_000_000,
  ) {
    for (let i = 0; i < baseCount; i++) this.mine([coinbase()], baseHeight + i);
  }

  get tip(): ModelBlock {
    return this.blocks[this.blocks.length - 1]!;
  }

  mine(txs: ModelTx[] = [coinbase()], height?: number): ModelBlock {
    const parent = this.blocks[this.blocks.length - 1];
    const h = height ?? parent!.height + 1;
    const block: ModelBlock = {
      height: h,
      hash: hash('block', h, this.fork, txs.map((t) => t.txId).join()),
      parentHash: parent?.hash ?? hash('genesis', h - 1),
      time: this.startTime + h * 10,
      txs: txs.map((t, i) => ({ ...t, txIndex: i })),
    };
    this.blocks.push(block);
    return block;
  }

  /** Replace the top `depth` blocks with `replacement` (each a list of txs), on a new fork. */
  reorg(depth: number, replacement: ModelTx[][]): void {
    this.fork += 1;
    this.blocks.splice(this.blocks.length - depth, depth);
    for (const txs of replacement) this.mine(txs);
  }

  private count(op: string, n = 1): void {
    this.requests[op] = (this.requests[op] ?? 0) + n;
  }

  totalRequests(): number {
    return Object.values(this.requests).reduce((a, b) => a + b, 0);
  }

  private at(height: number): ModelBlock | undefined {
    return this.blocks.find((b) => b.height === height);
  }

  async getTip(): Promise<ChainTip | null> {
    this.count('tip');
    const tip = this.tip;
    return { height: tip.height, hash: tip.hash, indexBlockHash: tip.hash };
  }

  async getContractStatuses(ids: readonly string[]): Promise<Map<string, ContractStatus>> {
    this.count('statuses', Math.ceil(ids.length / 100));
    const result = new Map<string, ContractStatus>();
    for (const id of ids) {
      result.set(id, this.statuses.get(id) ?? { contractId: id, found: false, status: null, txId: null, blockHeight: null });
    }
    return result;
  }

  private header(block: ModelBlock): BlockHeader {
    return {
      height: block.height,
      hash: block.hash,
      parentHash: block.parentHash,
      time: block.time,
      txCount: block.txs.length,
      ...(block.burnHeight === undefined ? {} : { burnHeight: block.burnHeight }),
    };
  }

  async getBlock(height: number): Promise<Block | null> {
    const block = this.at(height);
    this.count('blockTransactions', Math.max(1, Math.ceil((block?.txs.length ?? 0) / 50)));
    if (!block) return null;
    return {
      header: this.header(block),
      transactions: block.txs.map(({ logs: _logs, assets: _assets, ...tx }) => tx),
    };
  }

  async getBlockHeader(heightOrHash: number | string): Promise<BlockHeader | null> {
    this.count('blockHeader');
    const block = typeof heightOrHash === 'number' ? this.at(heightOrHash) : this.blocks.find((b) => b.hash === heightOrHash);
    return block ? this.header(block) : null;
  }

  async getTransactionEvents(txs: readonly { txId: string; eventCount: number }[]): Promise<Map<string, TxEvents>> {
    const wanted = txs.filter((t) => t.eventCount > 0);
    if (wanted.length > 0) this.count('txEvents');
    const result = new Map<string, TxEvents>();
    for (const { txId } of wanted) {
      const tx = this.blocks.flatMap((b) => b.txs).find((t) => t.txId === txId);
      if (!tx) throw new Error(`unknown tx ${txId}`);
      result.set(txId, { txId, logs: tx.logs ?? [], assets: tx.assets ?? [] });
    }
    return result;
  }
}
