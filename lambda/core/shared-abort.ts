// Waits on a signal that outlives them. The local runner aborts one signal on Ctrl-C for the whole life of the
// process, and every cycle's reads, queued requests, retries and sleeps wait on it. Two things the platform
// does would make a runner left for days pay for each wait it ever made:
//  - an 'abort' listener per wait: a read of many blocks queues dozens of requests at once on one signal (Node
//    warns past 10, MaxListenersExceededWarning), and a listener not removed stays until the abort;
//  - AbortSignal.any([perRequest, stop]): the stop signal keeps a link to every signal derived from it, which
//    Node 20 never lets go of (about 50 bytes a request, walked in full on abort).
// So every wait here is a callback in one set per signal, behind a single listener that goes when the last wait
// ends, and a signal derived from it is a plain controller that such a callback aborts and releases when done.
// Written here rather than taken from a package: any-signal and the like add a listener per call.

interface Waits {
  callbacks: Set<() => void>;
  listener: () => void;
}

const waitsOn = new WeakMap<AbortSignal, Waits>();

/**
 * Calls `callback` once when `signal` aborts (at once if it has), until the returned release is called. However
 * many waits share the signal, it holds one listener, removed when the last of them is released.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal.aborted) {
    callback();
    return () => {};
  }
  let waits = waitsOn.get(signal);
  if (!waits) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      waitsOn.delete(signal);
      // A wait released by another's callback is not called.
      for (const call of [...callbacks]) if (callbacks.delete(call)) call();
    };
    waits = { callbacks, listener };
    waitsOn.set(signal, waits);
    signal.addEventListener('abort', listener, { once: true });
  }
  // A wrapper per call, so the same function given twice is two waits, each released on its own.
  const call = () => callback();
  const { callbacks, listener } = waits;
  callbacks.add(call);
  return () => {
    if (!callbacks.delete(call) || callbacks.size > 0 || waitsOn.get(signal) !== waits) return;
    waitsOn.delete(signal);
    signal.removeEventListener('abort', listener);
  };
}

/** A signal that aborts when any of `signals` does, with its reason; released, it leaves nothing on them. */
export interface LinkedSignal {
  signal: AbortSignal;
  release(): void;
}

/** AbortSignal.any for one operation over signals that outlive it: `release` when the operation ends. */
export function linkedSignal(...signals: readonly (AbortSignal | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const releases: (() => void)[] = [];
  const release = () => {
    for (const releaseOne of releases.splice(0)) releaseOne();
  };
  for (const source of signals) {
    if (!source) continue;
    releases.push(
      onAbort(source, () => {
        controller.abort(source.reason);
        release();
      }),
    );
    if (controller.signal.aborted) break;
  }
  return { signal: controller.signal, release };
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts, leaving nothing on it. */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return new Promise((resolve) => setTimeout(resolve, ms));
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      release();
      resolve();
    }, ms);
    const release = onAbort(signal, () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}
