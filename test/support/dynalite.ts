// A real DynamoDB API in-process (dynalite, on LevelDB in memory) on 127.0.0.1 and a free port, with the
// state table created the way the stack creates it. Dynalite has real conditional writes and paging; it
// has no TTL deletion and no transactions.
import { createRequire } from 'node:module';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { stateTableDefinition } from '../../lambda/adapters/dynamodb/table';

// dynalite is CommonJS and ships no types; this is the part of it used here.
type Dynalite = (options: { createTableMs?: number; deleteTableMs?: number; updateTableMs?: number }) => Server;
const dynalite = createRequire(import.meta.url)('dynalite') as Dynalite;

export interface LocalDynamo {
  /** A client for the local endpoint (fake credentials, no SDK retries: failures show at once). */
  client: DynamoDBClient;
  endpoint: string;
  /** The state table created at start. */
  tableName: string;
  /** Another client for the same endpoint (to give it its own middleware); closed with the server. */
  newClient(): DynamoDBClient;
  /** Every request the server took, in order: its operation (`GetItem`...) and its JSON body, to count what a run cost. */
  requests: DynamoRequest[];
  /** Creates another state table, e.g. one per test; resolves once it is ACTIVE. */
  createTable(tableName: string): Promise<string>;
  close(): Promise<void>;
}

const ACTIVE_WAIT_MS = 5_000;

export interface DynamoRequest {
  operation: string;
  body: Record<string, unknown>;
}

export async function startDynalite(options: { tableName?: string } = {}): Promise<LocalDynamo> {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const requests: DynamoRequest[] = [];
  // Beside dynalite's own listener: the body is read by both.
  server.on('request', (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const operation =
        String(req.headers['x-amz-target'] ?? '')
          .split('.')
          .pop() ?? '';
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // not JSON: recorded without its body
      }
      requests.push({ operation, body });
    });
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const clients: DynamoDBClient[] = [];
  const newClient = () => {
    const created = new DynamoDBClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 1,
    });
    clients.push(created);
    return created;
  };
  const client = newClient();

  async function createTable(tableName: string): Promise<string> {
    await client.send(new CreateTableCommand(stateTableDefinition(tableName)));
    const giveUpAt = Date.now() + ACTIVE_WAIT_MS;
    for (;;) {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      if (Table?.TableStatus === 'ACTIVE') return tableName;
      if (Date.now() > giveUpAt) throw new Error(`dynalite table ${tableName} not ACTIVE after ${ACTIVE_WAIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  const tableName = await createTable(options.tableName ?? 'stacks-watch-state');

  return {
    client,
    endpoint,
    tableName,
    newClient,
    requests,
    createTable,
    async close() {
      for (const created of clients) created.destroy();
      server.closeAllConnections?.();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
