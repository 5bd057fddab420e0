// A scripted Stacks chain for the fake Hiro server: canonical blocks by height, their transactions and
// events, deploy statuses, and reorgs. Every hash and id derives from the seed and a counter, so the same
// script always yields the same chain, and a block mined in a reorg never reuses an old hash.
import { sha256Hex, type FakeEvent, type FakeTxSpec } from './tx-builders';
import { FakeMempool, type FakeDropReason } from './mempool';

export interface FakeTx {
  txId: string;
  txIndex: number;
  txType: string;
  txStatus: string;
  sender: string;
  nonce: number;
  feeRate: string;
  /** Who paid the fee of a sponsored transaction. */
  sponsor?: string;
  payload: Record<string, unknown>;
  events: FakeEvent[];
}

export interface FakeBlock {
  height: number;
  hash: string;
  indexBlockHash: string;
  parentHash: string;
  parentIndexBlockHash: string;
  /** Unix seconds. */
  time: number;
  burnBlockHeight: number;
  burnBlockHash: string;
  burnBlockTime: number;
  tenureHeight: number;
  txs: FakeTx[];
}

export interface FakeContractStatus {
  status: string;
  txId: string;
  /** Absent while pending. */
  blockHeight?: number;
}

export interface FakeChainOptions {
  /** Varies every hash and id. Default `stacks-watch`. */
  seed?: string;
  /** Height of the first mined block. Default 1. */
  firstHeight?: number;
  /** Unix seconds of the first block. Default 1 750 000 000. */
  startTime?: number;
  /** Seconds between blocks. Default 8 (Nakamoto pace). */
  blockSeconds?: number;
  /** False serves `/extended` without `chain_tip`, like an API still syncing. Default true. */
  synced?: boolean;
  /** The network `/v2/info` reports (its chain id). Default mainnet. */
  network?: 'mainnet' | 'testnet';
}

export class FakeChain {
  synced: boolean;
  network: 'mainnet' | 'testnet';
  readonly seed: string;
  readonly firstHeight: number;
  private readonly startTime: number;
  private readonly blockSeconds: number;
  private readonly canonical: FakeBlock[] = [];
  private readonly byHash = new Map<string, FakeBlock>();
  private readonly txs = new Map<string, { tx: FakeTx; block: FakeBlock }>();
  private readonly deploys = new Map<string, string>();
  private readonly statusOverrides = new Map<string, FakeContractStatus | null>();
  private readonly nonces = new Map<string, number>();
  private counter = 0;
  /** What each address held before the first block: address → asset (`stx` or an asset id) → base units. */
  readonly genesis = new Map<string, Map<string, bigint>>();
  /** Transactions waiting to be mined (mempool.ts); `submit`, `drop` and `replaceByFee` script it. */
  readonly mempool: FakeMempool;

  constructor(options: FakeChainOptions = {}) {
    this.seed = options.seed ?? 'stacks-watch';
    this.firstHeight = options.firstHeight ?? 1;
    this.startTime = options.startTime ?? 1_750_000_000;
    this.blockSeconds = options.blockSeconds ?? 8;
    this.synced = options.synced ?? true;
    this.network = options.network ?? 'mainnet';
    this.mempool = new FakeMempool(this.seed, () => this.tip?.time ?? this.startTime);
  }

  /**
   * Puts a transaction in the mempool (its nonce assigned as mining would); returns it with its txId set, to
   * pass to `mine` later. `receivedAt`: unix seconds, by default just after the tip's time.
   */
  submit(spec: FakeTxSpec, options: { receivedAt?: number } = {}): FakeTxSpec & { txId: string; nonce: number } {
    const nonce = spec.nonce ?? this.nonces.get(spec.sender) ?? 0;
    this.nonces.set(spec.sender, Math.max(this.nonces.get(spec.sender) ?? 0, nonce + 1));
    return this.mempool.add({ ...spec, nonce }, options.receivedAt);
  }

  /** The waiting transaction leaves the mempool unmined, for `reason`. */
  drop(txId: string, reason?: FakeDropReason): void {
    this.mempool.drop(txId, reason);
  }

  /** A new transaction with the same sender and nonce and a higher fee replaces the waiting one. */
  replaceByFee(txId: string, changes: Partial<FakeTxSpec> = {}): FakeTxSpec & { txId: string; nonce: number } {
    const old = this.mempool.find(txId);
    if (!old) throw new Error(`no waiting transaction ${txId} to replace`);
    const { txId: _old, ...rest } = old.spec;
    const replacement = this.mempool.add({ ...rest, feeRate: String(BigInt(old.spec.feeRate ?? '3000') * 2n), ...changes, nonce: old.spec.nonce });
    this.mempool.drop(txId, 'dropped_replace_by_fee', replacement.txId);
    return replacement;
  }

  get tip(): FakeBlock | undefined {
    return this.canonical.at(-1);
  }

  /** The Bitcoin tip the node has seen beyond the Stacks tip's tenure (`advanceBitcoin`); 0 while they agree. */
  private bitcoinAhead = 0;
  /** The Bitcoin block new Stacks blocks are anchored to once `newTenure` started one there. */
  private tenureBurnHeight = 0;
  /** While set, `/extended` serves this tip whatever is mined: an API whose database stopped (`freezeApiTip`). */
  apiTip: FakeBlock | null = null;

  /** Bitcoin moves on by `blocks` while the Stacks tip stays (the node's `/v2/info` says so; `/extended` does not). */
  advanceBitcoin(blocks = 1): void {
    this.bitcoinAhead += blocks;
  }

  /** The Bitcoin tip as the node sees it. */
  get bitcoinHeight(): number {
    return (this.tip?.burnBlockHeight ?? 900_000) + this.bitcoinAhead;
  }

  /** A miner starts a tenure at the current Bitcoin tip: blocks mined from now on are anchored there. */
  newTenure(): void {
    this.tenureBurnHeight = this.bitcoinHeight;
    this.bitcoinAhead = 0;
  }

  /** `/extended` keeps serving the current tip (true) while blocks are still mined and `/v2/info` sees them; false ends it. */
  freezeApiTip(frozen = true): void {
    this.apiTip = frozen ? (this.tip ?? null) : null;
  }

  /** The tip's height, or one below the first height before anything is mined. */
  get height(): number {
    return this.tip?.height ?? this.firstHeight - 1;
  }

  /** Canonical blocks, ascending. */
  blocks(): readonly FakeBlock[] {
    return this.canonical;
  }

  /** A canonical block by height, hash or index block hash (0x optional). */
  block(heightOrHash: number | string): FakeBlock | undefined {
    if (typeof heightOrHash === 'number') return this.canonical[heightOrHash - this.firstHeight];
    const key = normalizeHex(heightOrHash);
    const block = this.byHash.get(key);
    return block && this.isCanonical(block) ? block : undefined;
  }

  isCanonical(block: FakeBlock): boolean {
    return this.canonical[block.height - this.firstHeight] === block;
  }

  /** Appends a block holding `txs` (in order; tx_index from 0). */
  mine(txs: readonly FakeTxSpec[] = [], options: { time?: number } = {}): FakeBlock {
    this.counter += 1;
    const parent = this.tip;
    const height = this.height + 1;
    const block: FakeBlock = {
      height,
      hash: this.hash('block', height),
      indexBlockHash: this.hash('index-block', height),
      parentHash: parent?.hash ?? this.hash('genesis-parent', 0),
      parentIndexBlockHash: parent?.indexBlockHash ?? this.hash('genesis-parent-index', 0),
      time: options.time ?? (parent ? parent.time + this.blockSeconds : this.startTime),
      burnBlockHeight: Math.max(900_000 + Math.floor((height - this.firstHeight) / 60), this.tenureBurnHeight),
      burnBlockHash: this.hash('burn-block', height),
      burnBlockTime: parent?.burnBlockTime ?? this.startTime - 30,
      tenureHeight: 100_000 + Math.floor((height - this.firstHeight) / 60),
      txs: [],
    };
    block.txs = txs.map((spec, txIndex) => this.toTx(spec, txIndex));
    this.canonical.push(block);
    this.byHash.set(block.hash, block);
    this.byHash.set(block.indexBlockHash, block);
    for (const tx of block.txs) {
      this.mempool.mined(tx.txId);
      this.txs.set(tx.txId, { tx, block });
      const deployed = (tx.payload.smart_contract as { contract_id?: string } | undefined)?.contract_id;
      if (tx.txType === 'smart_contract' && deployed) this.deploys.set(deployed, tx.txId);
    }
    return block;
  }

  mineEmpty(count = 1): FakeBlock[] {
    return Array.from({ length: count }, () => this.mine([]));
  }

  /** Replaces the top `depth` blocks with blocks holding `replacements` (new hashes, same heights onwards). */
  reorg(depth: number, replacements: readonly (readonly FakeTxSpec[])[]): FakeBlock[] {
    if (depth < 0 || depth > this.canonical.length) {
      throw new RangeError(`reorg depth ${depth} is outside 0..${this.canonical.length} (the mined blocks)`);
    }
    this.canonical.splice(this.canonical.length - depth, depth);
    return replacements.map((txs) => this.mine(txs));
  }

  /** A transaction wherever it was last mined; orphaned ones come back with canonical false. */
  findTx(txId: string): { tx: FakeTx; block: FakeBlock; canonical: boolean } | undefined {
    const found = this.txs.get(normalizeHex(txId));
    return found && { ...found, canonical: this.isCanonical(found.block) };
  }

  /** What `address` holds of `asset` (`stx` or an asset id) before the first block (the balance route adds the blocks). */
  setGenesisBalance(address: string, asset: string, amount: bigint | number): void {
    const held = this.genesis.get(address) ?? new Map<string, bigint>();
    held.set(asset, BigInt(amount));
    this.genesis.set(address, held);
  }

  /** What the token metadata route says of each token contract (`ADDRESS.contract`), by contract; others are not found. */
  readonly tokenMetadata = new Map<string, Record<string, unknown>>();

  /** Makes the token metadata route know the token `assetId` (`ADDRESS.contract::token`): its decimals and symbol. */
  setTokenMetadata(assetId: string, metadata: { decimals: number; symbol?: string; name?: string }): void {
    const contract = assetId.split('::')[0]!;
    this.tokenMetadata.set(contract, {
      name: metadata.name ?? metadata.symbol ?? contract,
      symbol: metadata.symbol ?? null,
      decimals: metadata.decimals,
      total_supply: '0',
      token_uri: null,
      description: null,
      image_uri: null,
      tx_id: `0x${'0'.repeat(64)}`,
      sender_address: contract.split('.')[0],
      asset_identifier: assetId,
      metadata: null,
    });
  }

  /** Overrides what the status route says of `contractId`; null makes it not found. */
  setContractStatus(contractId: string, status: FakeContractStatus | null): void {
    this.statusOverrides.set(contractId, status);
  }

  /** The deploy status: an override, else the canonical deploy transaction, else null (not found). */
  contractStatus(contractId: string): FakeContractStatus | null {
    const override = this.statusOverrides.get(contractId);
    if (override !== undefined) return override;
    const txId = this.deploys.get(contractId);
    const found = txId ? this.findTx(txId) : undefined;
    if (!found?.canonical) return null;
    return { status: found.tx.txStatus, txId: found.tx.txId, blockHeight: found.block.height };
  }

  private toTx(spec: FakeTxSpec, txIndex: number): FakeTx {
    const nonce = spec.nonce ?? this.nonces.get(spec.sender) ?? 0;
    this.nonces.set(spec.sender, nonce + 1);
    return {
      txId: spec.txId ? normalizeHex(spec.txId) : `0x${sha256Hex(`${this.seed}:tx:${this.counter}:${txIndex}`)}`,
      txIndex,
      txType: spec.txType,
      txStatus: spec.txStatus ?? 'success',
      sender: spec.sender,
      nonce,
      feeRate: spec.feeRate ?? '3000',
      ...(spec.sponsor === undefined ? {} : { sponsor: spec.sponsor }),
      payload: spec.payload,
      events: spec.events,
    };
  }

  private hash(kind: string, height: number): string {
    return `0x${sha256Hex(`${this.seed}:${kind}:${height}:${this.counter}`)}`;
  }
}

export function normalizeHex(value: string): string {
  const lower = value.toLowerCase();
  return lower.startsWith('0x') ? lower : `0x${lower}`;
}
