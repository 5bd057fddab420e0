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
