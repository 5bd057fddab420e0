// The HTTP server every fake API here runs on: 127.0.0.1 on a free port (or the one asked), a handler whose
// failure answers 500 with the fake's own error body, and a close that clears the fake's pending timers (its
// scripted delays) and drops open connections, so no test waits on a socket after it ends.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

export async function listenLocally(options: {
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** The body a failing handler answers with. */
  failureBody: (error: unknown) => unknown;
  timers: Set<NodeJS.Timeout>;
  port?: number;
}): Promise<LocalServer> {
  const server = createServer((req, res) => {
    options.handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(options.failureBody(error)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of options.timers) clearTimeout(timer);
        options.timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
