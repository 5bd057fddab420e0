// The cost bench's stand-ins (dynalite, the fake Hiro API over a fake chain) in a child process
// (bench/stand-ins-child.ts), so that what the measuring process spends in CPU is the function's own work: the
// cycle, the SDK clients, parsing, logging. In the same process, answering the API's requests and storing the
// state's items would be counted as the function's work too.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createHiroClient, type HiroClient, type HiroClientOptions } from '../lambda/hiro';
import type { FakeTxSpec } from '../test/support/fake-hiro';
import type { StandInAnswer, StandInOrder } from './stand-ins-child';
import { UNPACED_RPM } from './watcher-harness';

const CHILD = fileURLToPath(new URL('./stand-ins-child.ts', import.meta.url));
/** The child's start (tsx compiling it, dynalite listening) and any order: past this, the bench fails. */
const ANSWER_TIMEOUT_MS = 30_000;

/** The fake API over one scenario's chain, served by the child. */
export interface ChildApi {
  url: string;
  mine(blocks: FakeTxSpec[][]): Promise<void>;
  submit(txs: FakeTxSpec[]): Promise<void>;
  /** Requests the fake API has answered since the chain started. */
  requests(): Promise<number>;
  /** The real Hiro client pointed at it (unpaced unless told). */
  client(options?: Omit<HiroClientOptions, 'baseUrl'>): HiroClient;
  close(): Promise<void>;
}

export interface StandIns {
  /** A DynamoDB client for the child's dynalite (fake credentials, no SDK retries). */
  newDynamoClient(): DynamoDBClient;
  /** Creates a state table as the stack does; resolves once it is ACTIVE. */
  createTable(name: string): Promise<string>;
  /** A fresh fake chain behind the fake API (the last one stops); `burnMsPerRequest` slows each answer on purpose. */
  startChain(seed: string, options?: { burnMsPerRequest?: number }): Promise<ChildApi>;
  /** The CPU ms the stand-ins' process has spent (user + system): what answering costs, which is not the function's. */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

export async function startStandIns(): Promise<StandIns> {
  const child: ChildProcess = fork(CHILD, [], { execArgv: ['--import', 'tsx'], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  let next = 1;
  const settle = (answer: StandInAnswer) => {
    const waiting = pending.get(answer.id);
    if (!waiting) return;
    pending.delete(answer.id);
    clearTimeout(waiting.timer);
    if (answer.ok) waiting.resolve(answer.value);
    else waiting.reject(new Error(`stand-ins: ${answer.error}`));
  };
  const wait = (id: number) =>
    new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`stand-ins: no answer in ${ANSWER_TIMEOUT_MS} ms`));
      }, ANSWER_TIMEOUT_MS);
      pending.set(id, { resolve, reject, timer });
    });
  child.on('message', settle);
  child.on('exit', (code) => {
    for (const id of [...pending.keys()]) settle({ id, ok: false, error: `the child exited (${code})` });
  });
  const waiting = wait(0);
  const ask = <T>(order: StandInOrder): Promise<T> => {
    const id = next++;
    const answer = wait(id);
    child.send({ id, order });
    return answer as Promise<T>;
  };
  const endpoint = (await waiting) as string;
  const clients: DynamoDBClient[] = [];
  return {
    newDynamoClient: () => {
      const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
      clients.push(client);
      return client;
    },
    createTable: (name) => ask<string>({ op: 'createTable', name }),
    startChain: async (seed, options = {}) => {
      const url = await ask<string>({ op: 'startChain', seed, ...options });
      return {
        url,
        mine: (blocks) => ask({ op: 'mine', blocks }),
        submit: (txs) => ask({ op: 'submit', txs }),
        requests: () => ask<number>({ op: 'requests' }),
        client: (clientOptions = {}) => createHiroClient({ requestsPerMinute: UNPACED_RPM, ...clientOptions, baseUrl: url }),
        close: () => ask({ op: 'stopChain' }),
      };
    },
    cpuMs: () => ask<number>({ op: 'cpu' }),
    close: async () => {
      for (const client of clients) client.destroy();
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.disconnect();
      await Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, 5_000).unref())]);
      if (child.exitCode === null) child.kill();
    },
  };
}
