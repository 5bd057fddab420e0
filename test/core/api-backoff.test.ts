// An API that asks the watcher to wait longer than the run has left (a Retry-After, a rate-limit reset)
// ends the run cleanly: the blocks it finished are saved, nothing is sent twice, the next run resumes; and an
// API that asks every run to wait before the same block reaches the operator like any stuck block.
import { describe, expect, it } from 'vitest';
import { ApiBackoffError } from '../../lambda/core/follow/api-backoff';
import { STUCK_AFTER_RUNS } from '../../lambda/core/health/block-stalls';
import { MemoryChain, transfer } from '../support/memory-chain';
import { config, harness, WATCHED } from './harness';

/** Blocks 101..106, a watched transfer each; reading block 104 is answered "wait 10 minutes" until `lift`. */
function backoffAt104() {
  const chain = new MemoryChain(100, 1);
  for (let i = 0; i < 6; i++) chain.mine([transfer(WATCHED, String(i + 1))]);
  const getBlock = chain.getBlock.bind(chain);
  let waiting = true;
  chain.getBlock = async (height) => {
    if (waiting && height === 104) throw new ApiBackoffError(600_000, 20_000);
    return getBlock(height);
  };
  return { chain, h: harness(chain, config({ startHeight: 101 })), lift: () => void (waiting = false) };
}

describe('an API asking to wait past the run', () => {
  it('ends the run as api-backoff, not a failure, with the blocks before it saved', async () => {
    const { h } = backoffAt104();

    const summary = await h.run();

    expect(summary.stoppedBecause).toBe('api-backoff');
    expect((await h.state.readCursor())?.height).toBe(103);
    expect(h.publisher.ofType('token_transfer')).toHaveLength(3);
    expect(h.telemetry.logs).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringContaining('the API asked to wait 600 s') }));
  });

  it('resumes at the block it stopped before on the next run, sending nothing twice', async () => {
    const { h, lift } = backoffAt104();
    await h.run();

    lift();
    const summary = await h.run();

    expect(summary.stoppedBecause).toBe('caught-up');
    expect((await h.state.readCursor())?.height).toBe(106);
    expect(h.publisher.ofType('token_transfer')).toHaveLength(6);
  });

  it('ends the run the same way when asked to wait before any block (the tip read)', async () => {
    const { chain, h } = backoffAt104();
    chain.getTip = async () => {
      throw new ApiBackoffError(120_000, 5_000);
    };

    const summary = await h.run();

    expect(summary.stoppedBecause).toBe('api-backoff');
    expect(await h.state.readCursor()).toBeNull();
    // The lease was given back: a later run is not locked out.
    chain.getTip = MemoryChain.prototype.getTip.bind(chain);
    expect((await h.run()).stoppedBecause).toBe('api-backoff');
  });

  it(`reaches the operator when every run is asked to wait before the same block (${STUCK_AFTER_RUNS} runs)`, async () => {
    const { h } = backoffAt104();
    await h.run(); // 101..103, then asked to wait: progress was made

    for (let run = 1; run <= STUCK_AFTER_RUNS; run++) expect((await h.run()).stoppedBecause).toBe('api-backoff');

    expect(h.operator.notices.map((n) => n.kind)).toEqual(['stuck-block']);
    expect(h.operator.notices[0]!.subject).toContain('block 104');
    expect(h.operator.notices[0]!.message).toContain('the API asked to wait 600 s');
  });

  it('tells the operator that a block stuck on the request budget does not pass by itself, and what frees the budget', async () => {
    const { h } = backoffAt104();
    for (let run = 0; run <= STUCK_AFTER_RUNS; run++) await h.run();

    const { message } = h.operator.notices[0]!;
    expect(message).not.toContain('recovers by itself');
    expect(message).toContain('request budget');
    expect(message).toContain('API key');
  });
});
