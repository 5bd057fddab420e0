// Crash injection for the watch cycle: wraps the ports so that the Nth call of a chosen step throws, as a
// run killed at that point would stop. From then on every call through the wrapped ports throws too: a
// killed process releases no claim and no lease, so neither may the simulated one. Used to prove that every
// crash ends, after reruns, with each alert published at least once and a duplicate only in the documented
// window.
import type { ChainApi, Publisher, StateStore } from '../../lambda/core/ports';

export const CRASH_POINTS = [
  'after reading the cursor',
  'after fetching a block',
  'after claiming an alert',
  'between publish calls',
  'after publishing',
  'after marking an alert sent',
  'before moving the cursor',
  'after moving the cursor',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

export class InjectedCrash extends Error {
  constructor(point: CrashPoint, occurrence: number) {
    super(`injected crash ${point} (#${occurrence})`);
    this.name = 'InjectedCrash';
  }
}

/** Arms one crash: the `occurrence`-th time the cycle passes `point`. */
export class CrashSwitch {
  private seen = 0;
  fired = false;
  /** Between the crash and the next run: the process is gone. */
  private dead = false;
  /** Alerts published and not yet marked sent. */
  readonly unmarked = new Set<string>();
  /**
   * What was published but not marked sent when the crash came: the only alerts that may be published twice.
   * With each call marked as it returns, this is at most the call in flight.
   */
  interruptedBatch: string[] = [];
  /** How often each point was passed: a run with no crash armed gives the occurrences worth crashing at. */
  readonly passes = new Map<CrashPoint, number>();
  constructor(
    readonly point: CrashPoint,
    readonly occurrence: number,
  ) {}

  pass(point: CrashPoint): void {
    this.passes.set(point, (this.passes.get(point) ?? 0) + 1);
    if (this.fired || point !== this.point) return;
    this.seen += 1;
    if (this.seen === this.occurrence) {
      this.fired = true;
      this.dead = true;
      this.interruptedBatch = [...this.unmarked];
      throw new InjectedCrash(point, this.occurrence);
    }
  }

  /** A dead process makes no more calls: anything the crashed run still tries fails the same way. */
  assertAlive(): void {
    if (this.dead) throw new InjectedCrash(this.point, this.occurrence);
  }

  /** The next run is a new process; the switch has fired and does not fire again. */
  restart(): void {
    this.dead = false;
  }
}

/** Wraps every method of `inner` with hooks run before and after the call. */
function intercept<T extends object>(
  inner: T,
  hooks: { before?: (method: string, args: unknown[]) => void; after?: (method: string, args: unknown[]) => void },
): T {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return async (...args: unknown[]) => {
        hooks.before?.(String(prop), args);
        const result = await method.apply(target, args);
        hooks.after?.(String(prop), args);
        return result;
      };
    },
  });
}

export function crashingState(inner: StateStore, crash: CrashSwitch): StateStore {
  return intercept(inner, {
    before: (method) => {
      crash.assertAlive();
      if (method === 'writeCursor') crash.pass('before moving the cursor');
    },
    after: (method, args) => {
      if (method === 'readCursor') crash.pass('after reading the cursor');
      if (method === 'claimAlert') crash.pass('after claiming an alert');
      if (method === 'markAlertSent') {
        crash.unmarked.delete(args[0] as string);
        crash.pass('after marking an alert sent');
      }
      if (method === 'writeCursor') crash.pass('after moving the cursor');
    },
  });
}

export function crashingChain(inner: ChainApi, crash: CrashSwitch): ChainApi {
  return intercept(inner, {
    before: () => crash.assertAlive(),
    after: (method) => {
      if (method === 'getBlock') crash.pass('after fetching a block');
    },
  });
}

/**
 * Crashes between the publisher's calls (a call made, its alerts not yet marked sent), and after the whole
 * publish. Keys count as unmarked from the moment their call returns.
 */
export function crashingPublisher(inner: Publisher, crash: CrashSwitch): Publisher {
  return {
    async publish(alerts, onAccepted) {
      crash.assertAlive();
      const outcome = await inner.publish(alerts, async (keys) => {
        for (const key of keys) crash.unmarked.add(key);
        crash.pass('between publish calls');
        await onAccepted?.(keys);
      });
      crash.pass('after publishing');
      return outcome;
    },
  };
}
