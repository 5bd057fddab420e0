// Benchmark 6: how many transactions a second the matcher gets through with a large watch list (10,000
// addresses, 1,000 contracts), on the generated chain's blocks already read into domain types: transfer
// matching, picking the transactions whose events are needed, and log matching over their events.
import { createHash } from 'node:crypto';
import type { AssetEvent, Block, ContractLogEvent, TxEvents } from '../lambda/core/domain';
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';
import { toAssetEvent } from '../lambda/hiro/mappers';
import type { RawTxEvent } from '../lambda/hiro/schemas';
import { blockAlerts, transactionsNeedingEvents } from '../lambda/core/match/block-alerts';
import { compileWatchRules } from '../lambda/core/rules/rule-lists';
import { FakeChain, type FakeBlock } from '../test/support/fake-hiro';
import { mineAll, watchConfig, type Workload } from './mainnet-workload';
import { emptyWatchConfig } from '../lambda/config/watch-config';
import { table, thousands } from './markdown';

export interface MatchingRow {
  addresses: number;
  contracts: number;
  transactions: number;
  events: number;
  alerts: number;
  transactionsPerSecond: number;
}

const C32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MIN_RUN_MS = 1_500;

/** A string shaped like a mainnet address (matching compares strings; the checksum plays no part). */
function addressLike(label: string): string {
  const digest = createHash('sha256').update(label).digest();
  let out = 'SP';
  for (let i = 0; i < 39; i += 1) out += C32[digest[i % digest.length]! % 32];
  return out;
}

function toDomain(block: FakeBlock): { block: Block; events: Map<string, TxEvents> } {
  const events = new Map<string, TxEvents>();
  const transactions = block.txs.map((tx) => {
    const transfer = tx.payload.token_transfer as { recipient_address: string; amount: string; memo: string } | undefined;
    const called = (tx.payload.contract_call ?? tx.payload.smart_contract) as { contract_id: string } | undefined;
    const logs: ContractLogEvent[] = [];
    const assets: AssetEvent[] = [];
    tx.events.forEach((event, eventIndex) => {
      // The edge's own mapping, so the matcher sees the asset events it sees in production.
      const asset = toAssetEvent({ ...event, event_index: eventIndex } as unknown as RawTxEvent);
      if (asset) assets.push(asset);
      if (event.event_type !== 'smart_contract_log') return;
      const log = event.contract_log as { contract_id: string; topic: string; value: { hex: string; repr: string } };
      logs.push({ eventIndex, contractId: log.contract_id, topic: log.topic, valueHex: log.value.hex, valueRepr: log.value.repr });
    });
    events.set(tx.txId, { txId: tx.txId, logs, assets });
    return {
      txId: tx.txId,
      txIndex: tx.txIndex,
      txType: tx.txType,
      txStatus: tx.txStatus,
      sender: tx.sender,
      eventCount: tx.events.length,
      ...(transfer ? { tokenTransfer: { recipient: transfer.recipient_address, amount: transfer.amount, memo: transfer.memo } } : {}),
      ...(called ? { contractId: called.contract_id } : {}),
    };
  });
  return {
    block: { header: { height: block.height, hash: block.hash, parentHash: block.parentHash, time: block.time, txCount: block.txs.length }, transactions },
    events,
  };
}

export function measureMatching(workload: Workload, sizes = { addresses: 10_000, contracts: 1_000 }): MatchingRow {
  const chain = new FakeChain({ seed: 'bench-matching' });
  mineAll(chain, workload.blocks);
  const blocks = chain.blocks().map(toDomain);
  const config: WatchConfig = {
    ...emptyWatchConfig('mainnet'),
    contracts: [],
    // The workload's watched ones among thousands that never occur.
    addresses: [...workload.watchedAddresses, ...Array.from({ length: sizes.addresses - workload.watchedAddresses.length }, (_, i) => addressLike(`a${i}`))],
    contractLogs: [
      ...watchConfig('both', workload, 'latest').contractLogs,
      ...Array.from({ length: sizes.contracts - workload.watchedContracts.length }, (_, i) => ({ contractId: `${addressLike(`c${i}`)}.contract-${i}` })),
    ],
    transfers: watchConfig('both', workload, 'latest').transfers,
    startHeight: 'latest',
    confirmations: 0,
    maxBlocksPerRun: 500,
  };
  const rules = compileWatchRules(config);
  const transactions = blocks.reduce((sum, { block }) => sum + block.transactions.length, 0);
  const events = blocks.reduce((sum, { events: e }) => sum + [...e.values()].reduce((s, t) => s + t.logs.length, 0), 0);
  let alerts = 0;
  let passes = 0;
  const started = performance.now();
  while (performance.now() - started < MIN_RUN_MS) {
    alerts = 0;
    for (const { block, events: blockEvents } of blocks) {
      const needed = transactionsNeedingEvents(block, rules);
      const fetched = new Map(needed.map((tx) => [tx.txId, blockEvents.get(tx.txId)!]));
      alerts += blockAlerts(block, fetched, rules, 'mainnet').length;
    }
    passes += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    addresses: rules.addresses.principals.size,
    contracts: rules.contractLogs.size,
    transactions,
    events,
    alerts,
    transactionsPerSecond: (transactions * passes) / seconds,
  };
}

export function matchingSection(m: MatchingRow): string {
  return [
    `### 6. Matching throughput`,
    '',
    table(
      ['watched addresses', 'watched contracts', 'transactions', 'log events', 'alerts', 'transactions / s'],
      [
        [
          thousands(m.addresses),
          thousands(m.contracts),
          thousands(m.transactions),
          thousands(m.events),
          thousands(m.alerts),
          thousands(m.transactionsPerSecond),
        ],
      ],
    ),
  ].join('\n');
}
