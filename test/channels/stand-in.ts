// A real local HTTP server standing in for a chat service: it records each request (path, headers, JSON
// body) and answers from a script (status, headers, body, or no answer at all), else refuses what the service
// would refuse (service-rules.ts: over its limits, markup it cannot parse), else 200.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { serviceRefusal } from './service-rules';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface Answer {
  /** Ignored with `hang`. */
  status: number;
  /** Never answer: the request is recorded and its connection left open until the stand-in closes. */
  hang?: boolean;
  headers?: Record<string, string>;
  body?: string;
}

export interface StandIn {
  url: string;
  received: Received[];
  /** Answers for the next requests, in order; after them, the service's refusal of a body it would refuse, else 200. */
  answers: Answer[];
  close(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
  const received: Received[] = [];
  const answers: Answer[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
      received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
      const answer = answers.shift() ?? serviceRefusal(request.url ?? '', body, raw) ?? { status: 200, body: 'ok' };
      if (answer.hang) return;
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A stand-in for the whole test file, cleared before each test: `service()` is the running server. */
export function useStandIn(): () => StandIn {
  let service: StandIn | undefined;
  beforeAll(async () => {
    service = await startStandIn();
  });
  afterAll(() => service?.close());
  beforeEach(() => {
    service!.received.length = 0;
    service!.answers.length = 0;
  });
  return () => service!;
}
