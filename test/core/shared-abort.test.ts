// Waits on a signal that outlives them (the local runner's Ctrl-C): one listener on it for all of them, gone with
// the last; each wait still called on abort; a derived signal that lets go of its sources.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { linkedSignal, onAbort, sleepUnlessAborted } from '../../lambda/core/shared-abort';

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('waits on a shared signal', () => {
  it('hold one listener however many wait, removed when the last is released', () => {
    const stop = new AbortController();
    const releases = Array.from({ length: 100 }, () => onAbort(stop.signal, () => {}));
    expect(listeners(stop.signal)).toBe(1);
    for (const release of releases.slice(1)) release();
    expect(listeners(stop.signal)).toBe(1);
    releases[0]!();
    expect(listeners(stop.signal)).toBe(0);
    // Released twice: nothing more happens.
    releases[0]!();
    expect(listeners(stop.signal)).toBe(0);
  });

  it('are each called once on abort, except those released before it', () => {
    const stop = new AbortController();
    const called: number[] = [];
    const releases = [0, 1, 2].map((i) => onAbort(stop.signal, () => called.push(i)));
    releases[1]!();
    stop.abort();
    stop.abort();
    expect(called).toEqual([0, 2]);
    expect(listeners(stop.signal)).toBe(0);
  });

  it('are called at once on a signal that has already aborted', () => {
    const called: string[] = [];
    onAbort(AbortSignal.abort(), () => called.push('at once'));
    expect(called).toEqual(['at once']);
  });

  it('skip a wait that another wait released as the signal aborted', () => {
    const stop = new AbortController();
    const called: string[] = [];
    let releaseSecond = () => {};
    onAbort(stop.signal, () => {
      called.push('first');
      releaseSecond();
    });
    releaseSecond = onAbort(stop.signal, () => called.push('second'));
    stop.abort();
    expect(called).toEqual(['first']);
  });

  it('start afresh after the signal emptied: a new wait adds the one listener again', () => {
    const stop = new AbortController();
    onAbort(stop.signal, () => {})();
    const called: string[] = [];
    onAbort(stop.signal, () => called.push('later'));
    expect(listeners(stop.signal)).toBe(1);
    stop.abort();
    expect(called).toEqual(['later']);
  });
});

describe('a signal linked to longer-lived ones', () => {
  it('aborts with the reason of whichever source aborts first', () => {
    const stop = new AbortController();
    const other = new AbortController();
    const linked = linkedSignal(other.signal, undefined, stop.signal);
    stop.abort(new Error('stop requested'));
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe('stop requested');
    expect(listeners(other.signal)).toBe(0);
  });

  it('is aborted at once when a source already is', () => {
    const linked = linkedSignal(new AbortController().signal, AbortSignal.abort(new Error('gone')));
    expect((linked.signal.reason as Error).message).toBe('gone');
  });

  it('leaves nothing on its sources once released, and no longer follows them', () => {
    const stop = new AbortController();
    const links = Array.from({ length: 1_000 }, () => linkedSignal(stop.signal));
    expect(listeners(stop.signal)).toBe(1);
    for (const link of links) link.release();
    expect(listeners(stop.signal)).toBe(0);
    stop.abort();
    expect(links.some((link) => link.signal.aborted)).toBe(false);
  });
});

describe('a sleep a signal cuts short', () => {
  it('rejects with the reason as soon as the signal aborts', async () => {
    const stop = new AbortController();
    const started = Date.now();
    const sleeping = sleepUnlessAborted(60_000, stop.signal);
    stop.abort(new Error('stop requested'));
    await expect(sleeping).rejects.toThrow('stop requested');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('leaves no listener once it has slept', async () => {
    const stop = new AbortController();
    await Promise.all(Array.from({ length: 20 }, () => sleepUnlessAborted(1, stop.signal)));
    expect(listeners(stop.signal)).toBe(0);
  });

  it('rejects at once on a signal that has already aborted', async () => {
    await expect(sleepUnlessAborted(60_000, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});
