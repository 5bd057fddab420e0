import { describe, expect, it } from 'vitest';
import {
  assessChainHealth,
  CHAIN_HEALTH_DEFAULTS,
  delivered,
  needsNodeReading,
  type ApiTipReading,
  type ChainHealthState,
  type NodeReading,
} from '../../lambda/core/health/chain-health';
import { chatView } from '../../lambda/channels/chat-view';
import { pagerDutyChannel } from '../../lambda/channels/pagerduty';
import { renderSubject } from '../../lambda/core/render';

const MIN = 60_000;
const T0 = 1_764_160_000_000;
const settings = CHAIN_HEALTH_DEFAULTS;
const tip = (height: number, burnHeight: number | null = 925_100): ApiTipReading => ({
  height,
  hash: `0x${height.toString(16).padStart(64, '0')}`,
  burnHeight,
});

/** One run: the state after it, its new alerts delivered. */
function run(state: ChainHealthState | null, reading: ApiTipReading, minutes: number, node: NodeReading | null = null) {
  const next = assessChainHealth({ state, tip: reading, node, nowMs: T0 + minutes * MIN, settings, network: 'mainnet' });
  return { state: delivered(next), alerts: next.outbox };
}

describe('chain health: which condition, with its cause', () => {
  it('stays quiet while the tip moves every run', () => {
    let state: ChainHealthState | null = null;
    for (let m = 0; m < 60; m++) {
      const r = run(state, tip(100 + m * 7), m);
      expect(r.alerts).toEqual([]);
      state = r.state;
    }
  });

  it('says the chain stopped when the node agrees there is no new block while Bitcoin moved', () => {
    let { state } = run(null, tip(100), 0);
    ({ state } = run(state, tip(100), 9, { stacksTipHeight: 100, burnHeight: 925_101 }));
    const r = run(state, tip(100), 10, { stacksTipHeight: 100, burnHeight: 925_101 });
    expect(r.alerts.map((a) => [a.condition, a.phase, a.severity])).toEqual([['chain_stopped', 'started', 'critical']]);
    expect(renderSubject(r.alerts[0]!)).toContain('the Stacks chain stopped: no new block for 10 minutes');
  });

  it('says the API is stale when the node behind it is ahead', () => {
    const { state } = run(null, tip(100), 0);
    const r = run(state, tip(100), 11, { stacksTipHeight: 180, burnHeight: 925_100 });
    expect(r.alerts.map((a) => a.condition)).toEqual(['api_stale']);
    expect(renderSubject(r.alerts[0]!)).toContain('the API is stale');
  });

  it('says "either the chain or this API stopped" when the node cannot be asked', () => {
    const { state } = run(null, tip(100), 0);
    const r = run(state, tip(100), 12, { unavailable: '/v2/info answered 404' });
    expect(r.alerts.map((a) => a.condition)).toEqual(['chain_or_api_stopped']);
    expect(renderSubject(r.alerts[0]!)).toContain('either the chain or this API stopped');
  });

  it('says no new tenure when Bitcoin is two blocks past the tip’s tenure while blocks still come', () => {
    let { state } = run(null, tip(100, 925_100), 0);
    ({ state } = run(state, tip(150, 925_100), 5));
    const r = run(state, tip(300, 925_100), 25, { stacksTipHeight: 300, burnHeight: 925_102 });
    expect(r.alerts.map((a) => [a.condition, a.tenure_bitcoin_height, a.bitcoin_height])).toEqual([['no_new_tenure', 925_100, 925_102]]);
  });
});

describe('chain health: once when it starts, once when it ends', () => {
  it('alerts a stall once however many runs it lasts, then "moving again" resolving it', () => {
    let { state } = run(null, tip(100), 0);
    const started = [];
    for (let m = 10; m < 40; m++) {
      const r = run(state, tip(100), m, { stacksTipHeight: 100, burnHeight: 925_101 });
      started.push(...r.alerts);
      state = r.state;
    }
    expect(started).toHaveLength(1);
    const end = run(state, tip(101), 41);
    expect(end.alerts.map((a) => [a.condition, a.phase, a.resolves, a.moved_to_height])).toEqual([['chain_stopped', 'ended', started[0]!.key, 101]]);
    expect(renderSubject(end.alerts[0]!)).toContain('moving again');
    expect(end.state.open).toEqual([]);
  });

  it('ends no new tenure when the tip’s tenure moves to a newer Bitcoin block', () => {
    let { state } = run(null, tip(100, 925_100), 0);
    ({ state } = run(state, tip(300, 925_100), 25, { stacksTipHeight: 300, burnHeight: 925_102 }));
    const r = run(state, tip(310, 925_103), 26);
    expect(r.alerts.map((a) => [a.condition, a.phase])).toEqual([['no_new_tenure', 'ended']]);
  });

  it('resolves the PagerDuty incident the start opened, with the same dedup key', () => {
    let { state, alerts } = run(run(null, tip(100), 0).state, tip(100), 10, { stacksTipHeight: 100, burnHeight: 925_101 });
    const settings = { url: 'https://events.example/v2/enqueue', routingKey: 'k', minSeverity: 'critical' as const };
    const trigger = pagerDutyChannel.request(chatView(alerts[0]!), settings)!.body as Record<string, unknown>;
    ({ alerts } = run(state, tip(101), 11));
    const resolve = pagerDutyChannel.request(chatView(alerts[0]!), settings)!.body as Record<string, unknown>;
    expect([trigger.event_action, resolve.event_action, resolve.dedup_key]).toEqual(['trigger', 'resolve', trigger.dedup_key]);
  });
});

describe('chain health: what it asks and what it keeps', () => {
  it('asks the node nothing while the tip moves, and once a run only while a condition could open', () => {
    let state: ChainHealthState | null = null;
    const asked: number[] = [];
    for (let m = 0; m < 30; m++) {
      // Bitcoin moves every 10 minutes and each new Bitcoin block starts a tenure while the chain moves.
      const reading = m < 15 ? tip(100 + m, 925_100 + Math.floor(m / 10)) : tip(114, 925_101);
      if (state && needsNodeReading(state, reading, T0 + m * MIN, settings)) asked.push(m);
      state = run(state, reading, m, { stacksTipHeight: 114, burnHeight: 925_102 }).state;
    }
    // Frozen from minute 14; the stall can open from minute 24 and opens then: asked at 24 only.
    expect(asked).toEqual([24]);
  });

  it('keeps a state that survives JSON whole, with its version', () => {
    const { state } = run(run(null, tip(100), 0).state, tip(100), 10, { stacksTipHeight: 100, burnHeight: 925_101 });
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(state.version).toBe(1);
    expect(JSON.stringify(state).length).toBeLessThan(2_000);
  });

  it('keeps undelivered alerts in the outbox of the next state, so a crash before delivery loses none', () => {
    const start = run(null, tip(100), 0).state;
    const undelivered = assessChainHealth({
      state: start,
      tip: tip(100),
      node: { stacksTipHeight: 100, burnHeight: 925_101 },
      nowMs: T0 + 10 * MIN,
      settings,
      network: 'mainnet',
    });
    const after = assessChainHealth({ state: undelivered, tip: tip(101), node: null, nowMs: T0 + 11 * MIN, settings, network: 'mainnet' });
    expect(after.outbox.map((a) => a.phase)).toEqual(['started', 'ended']);
  });
});
