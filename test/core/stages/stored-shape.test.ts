// A state file written before the stages had a shape of their own (the cursor carrying `windows` and `quiet`
// as fields, written by the watcher of that time: a window of 5 transfers in 60 minutes with 3 counted, a
// 30-minute cooldown holding 2) loads into the stages unchanged and the next block goes on from it.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChainAlert } from '../../../lambda/core/alert-kinds/alert';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import type { CooldownMuteState } from '../../../lambda/core/stages/cooldown-mute-state';
import type { WindowStates } from '../../../lambda/core/stages/window-state';
import { OpenStages } from '../../../lambda/core/stages/open-stages';
import { FileStateStore } from '../../../lambda/adapters/file/file-state-store';
import { config, RecordingTelemetry, WATCHED } from '../harness';
import { MemoryChain } from '../../support/memory-chain';

const FIXTURE = join(__dirname, 'fixtures', 'state-before-stages.json');
const cfg = config({
  addressesRule: { name: 'treasury', cooldownMinutes: 30 },
  windows: [{ name: 'busy treasury', of: 'treasury', minutes: 60, count: 5 }],
} as never);
let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function openFixture(): Promise<FileStateStore> {
  dir = await mkdtemp(join(tmpdir(), 'stages-shape-'));
  await copyFile(FIXTURE, join(dir, 'state.json'));
  await copyFile(`${FIXTURE}.journal`, join(dir, 'state.json.journal'));
  return FileStateStore.open(join(dir, 'state.json'), 'mainnet');
}

const transfer = (n: number) =>
  ({
    type: 'token_transfer',
    key: `token_transfer:0x10${n}`,
    network: 'mainnet',
    rule: 'treasury',
    severity: 'warning',
    tx_id: `0x10${n}`,
    block_height: 104,
    recipient: WATCHED,
    amount: '5000000',
  }) as unknown as ChainAlert;

describe('a state stored before the stage shape', () => {
  it('loads the windows and the cooldowns from the cursor fields they were written in, and the next block goes on from them', async () => {
    const state = await openFixture();
    const cursor = await state.readCursor();
    const stages = OpenStages.open({
      deps: { chain: new MemoryChain(), state, clock: { now: () => 0 }, telemetry: new RecordingTelemetry() },
      rules: compileWatchRules(cfg),
      network: 'mainnet',
    });
    const states = await stages.load(cursor);
    expect((states.windows as WindowStates)['busy treasury']!.entries.map((e) => e.h)).toEqual([101, 102, 103]);
    expect((states.quiet as CooldownMuteState).cooldowns[0]).toMatchObject({ rule: 'treasury', held: 2, startedHeight: 101 });

    const block = { header: { height: 104, hash: '0x104', parentHash: cursor!.hash, time: 1_700_001_040, txCount: 2 }, transactions: [] };
    const matched = [0, 1].map((i) => ({ alert: transfer(i), at: { txIndex: i, eventIndex: -1 } }));
    const staged = await stages.apply({ block, events: new Map(), network: 'mainnet' }, matched, states);
    // The fifth match in the hour crosses the window (sent: the window has no cooldown); the rule's cooldown,
    // started at 101, holds both transfers.
    expect(staged.alerts.map((a) => a.type)).toEqual(['token_transfer', 'token_transfer', 'window_threshold']);
    expect(staged.send.map((a) => a.type)).toEqual(['window_threshold']);
    expect((staged.states.quiet as CooldownMuteState).cooldowns[0]!.held).toBe(4);
    // Written back in the same fields.
    const written = stages.carrying({ height: 104, hash: '0x104', time: 1_700_001_040 }, staged.states);
    expect(Object.keys(written).sort()).toEqual(['hash', 'height', 'quiet', 'time', 'windows']);
  });
});
