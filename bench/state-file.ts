// Benchmark: the local state file under a busy catch-up. Blocks of 10 alerts each go through the store as
// the watcher drives it (the block recorded, each alert claimed then marked sent with its copy, the cursor
// moved), 10,000 alerts in all. A write must cost O(changes), not O(history): the blocks a second at the
// start and at the end, and the time per alert, say whether it does.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStateStore } from '../lambda/adapters/file/file-state-store';
import { fixed, kib, table, thousands, verdict } from './markdown';

export interface StateFileRow {
  alerts: number;
  blocks: number;
  /** Blocks a second over the first and the last tenth of the run. */
  blocksPerSecondStart: number;
  blocksPerSecondEnd: number;
  /** Mean wall time of one alert's writes (claim + sent), in ms. */
  msPerAlert: number;
  /** The state on disk at the end: the file and what lies beside it (journal). */
  bytesOnDisk: number;
}

const ALERTS_PER_BLOCK = 10;
const T0 = 1_800_000_000_000;

/** A token transfer alert as the watcher keeps its copy: about 600 bytes of JSON. */
function alertCopy(height: number, index: number) {
  const txId = `0x${height.toString(16).padStart(56, '0')}${index.toString(16).padStart(8, '0')}`;
  return {
    type: 'stx_transfer',
    key: `stx_transfer:${txId}:${index}`,
    network: 'mainnet',
    tx_id: txId,
    block_height: height,
    block_hash: `0x${height.toString(16).padStart(64, 'a')}`,
    block_time: 1_700_000_000 + height,
    event_index: index,
    sender: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7',
    recipient: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE',
    address: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE',
    direction: 'received',
    amount: String(1_000_000 * (index + 1)),
    memo: '0x',
    rule: 'addresses:SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE',
    severity: 'warning',
  };
}

async function bytesIn(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) total += (await stat(join(dir, name))).size;
  return total;
}

export async function measureStateFile(alerts = 10_000): Promise<StateFileRow> {
  const dir = await mkdtemp(join(tmpdir(), 'stacks-watch-bench-state-'));
  try {
    const store = await FileStateStore.open(join(dir, 'state.json'), 'mainnet');
    await store.acquireLease('bench', T0, 3_600_000);
    const blocks = Math.ceil(alerts / ALERTS_PER_BLOCK);
    const blockMs: number[] = [];
    let alertMs = 0;
    let version: number | null = null;
    for (let height = 1; height <= blocks; height++) {
      const blockStart = performance.now();
      const hash = `0x${height.toString(16).padStart(64, '0')}`;
      await store.putScannedBlocks([{ height, hash, parentHash: `0x${(height - 1).toString(16).padStart(64, '0')}`, alertKeys: [] }]);
      for (let i = 0; i < ALERTS_PER_BLOCK; i++) {
        const alertStart = performance.now();
        const copy = alertCopy(height, i);
        await store.claimAlert(copy.key, T0 + height, 120_000);
        await store.markAlertSent(copy.key, T0 + height, copy);
        alertMs += performance.now() - alertStart;
      }
      version = (await store.writeCursor({ height, hash, time: 1_700_000_000 + height }, version)).version;
      blockMs.push(performance.now() - blockStart);
    }
    const tenth = Math.max(1, Math.floor(blocks / 10));
    const rate = (ms: number[]) => (ms.length * 1000) / ms.reduce((a, b) => a + b, 0);
    return {
      alerts: blocks * ALERTS_PER_BLOCK,
      blocks,
      blocksPerSecondStart: rate(blockMs.slice(0, tenth)),
      blocksPerSecondEnd: rate(blockMs.slice(-tenth)),
      msPerAlert: alertMs / (blocks * ALERTS_PER_BLOCK),
      bytesOnDisk: await bytesIn(dir),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function stateFileSection(rows: StateFileRow[]): string {
  return [
    '### 8. The local state file under a busy catch-up',
    '',
    `Blocks of ${ALERTS_PER_BLOCK} alerts written to the state file as the watcher writes them (the block, each alert claimed and marked sent with its copy, ` +
      'the cursor), every write on disk (fsync) before it returns. Goal: the last tenth of the run at least half as fast as the first (a write costs what changed, not the whole history).',
    '',
    table(
      ['alerts', 'blocks', 'blocks / s (first tenth)', 'blocks / s (last tenth)', 'ms per alert', 'on disk', 'goal'],
      rows.map((r) => [
        thousands(r.alerts),
        thousands(r.blocks),
        fixed(r.blocksPerSecondStart, 1),
        fixed(r.blocksPerSecondEnd, 1),
        fixed(r.msPerAlert, 3),
        kib(r.bytesOnDisk),
        verdict(r.blocksPerSecondEnd >= 0.5 * r.blocksPerSecondStart),
      ]),
    ),
  ].join('\n');
}
