// Crash injection for the watch cycle: wraps the ports so that the Nth call of a chosen step throws, as a
// run killed at that point would stop. Used to prove that every crash ends, after reruns, with each
// alert published at least once and a duplicate only in the documented window.
import type { ChainApi, Publisher, StateStore } from '../../lambda/core/ports';

export const CRASH_POINTS = [
  'after reading the cursor',
  'after fetching a block',
  'after claiming an alert',
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
  /** Alerts published and not yet marked sent. */
  readonly unmarked = new Set<string>();
  /** What was published but not marked sent when the crash came: the only alerts that may be published twice. */
  interruptedBatch: string[] = [];
  constructor(
    readonly point: CrashPoint,
    readonly occurrence: number,
  ) {}

  pass(point: CrashPoint): void {
    if (this.fired || point !== this.point) return;
    this.seen += 1;
    if (this.seen === this.occurrence) {
      this.fired = true;
      this.interruptedBatch = [...this.unmarked];
      throw new InjectedCrash(point, this.occurrence);
    }
  }
}

export function crashingState(inner: StateStore, crash: CrashSwitch): StateStore {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return async (...args: unknown[]) => {
        if (prop === 'writeCursor') crash.pass('before moving the cursor');
        const result = await method.apply(target, args);
        if (prop === 'readCursor') crash.pass('after reading the cursor');
        if (prop === 'claimAlert') crash.pass('after claiming an alert');
        if (prop === 'markAlertSent') {
          crash.unmarked.delete(args[0] as string);
          crash.pass('after marking an alert sent');
        }
        if (prop === 'writeCursor') crash.pass('after moving the cursor');
        return result;
      };
    },
  });
}

export function crashingChain(inner: ChainApi, crash: CrashSwitch): ChainApi {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return async (...args: unknown[]) => {
        const result = await method.apply(target, args);
        if (prop === 'getBlock') crash.pass('after fetching a block');
        return result;
      };
    },
  });
}

export function crashingPublisher(inner: Publisher, crash: CrashSwitch): Publisher {
  return {
    async publish(alerts) {
      const outcome = await inner.publish(alerts);
      for (const a of alerts) crash.unmarked.add(a.alert.key);
      crash.pass('after publishing');
      return outcome;
    },
  };
}
