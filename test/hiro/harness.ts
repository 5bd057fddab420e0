// Shared set-up for the Hiro client tests: a fake Hiro server per test and a client pointed at it, on a
// virtual clock (no real waiting) with fixed jitter, recording its log lines and request events.
import { afterEach } from 'vitest';
import { createHiroClient, type HiroClientOptions, type HiroRequestEvent } from '../../lambda/hiro';
import { createFakeHiro, VirtualClock, type FakeHiro, type FakeHiroOptions } from '../support/fake-hiro';

const running: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((close) => close()));
});

export interface Harness {
  fake: FakeHiro;
  url: string;
  clock: VirtualClock;
  logs: { level: string; message: string; attributes: Record<string, unknown> | undefined }[];
  events: HiroRequestEvent[];
  /** A client for the fake; options override the test defaults. */
  client(options?: Partial<HiroClientOptions>): ReturnType<typeof createHiroClient>;
}

export async function startHarness(fakeOptions: FakeHiroOptions = {}): Promise<Harness> {
  const fake = createFakeHiro(fakeOptions);
  const server = await fake.start();
  running.push(server.close);
  const clock = new VirtualClock();
  const logs: Harness['logs'] = [];
  const events: HiroRequestEvent[] = [];
  return {
    fake,
    url: server.url,
    clock,
    logs,
    events,
    client: (options = {}) =>
      createHiroClient({
        baseUrl: server.url,
        now: clock.now,
        sleep: clock.sleep,
        random: () => 0.5,
        timeoutMs: 2_000,
        log: (level, message, attributes) => logs.push({ level, message, attributes }),
        onRequest: (event) => events.push(event),
        ...options,
      }),
  };
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error('expected a rejection, but the promise resolved');
}

/**
 * A fetch that holds each request until `together` requests are in flight at once (or `boundMs` of real time
 * passed), counting the most in flight per path: requests sent one after the other meet the bound one at a time.
 */
export function heldFetch(together: number, boundMs = 1_000): { fetch: typeof fetch; most(pathPart: string): number } {
  const inFlight: { path: string; release: () => void }[] = [];
  const most = new Map<string, number>();
  const fetchHeld: typeof fetch = async (input, init) => {
    const path = new URL(String(input)).pathname;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const timer = setTimeout(release, boundMs);
    const entry = { path, release };
    inFlight.push(entry);
    for (const { path: p } of inFlight) most.set(p, Math.max(most.get(p) ?? 0, inFlight.length));
    if (inFlight.length >= together) for (const other of inFlight) other.release();
    try {
      await held;
      return await fetch(input, init);
    } finally {
      clearTimeout(timer);
      inFlight.splice(inFlight.indexOf(entry), 1);
    }
  };
  const mostOf = (pathPart: string) => Math.max(0, ...[...most].filter(([p]) => p.includes(pathPart)).map(([, n]) => n));
  return { fetch: fetchHeld, most: mostOf };
}
