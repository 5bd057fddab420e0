// The cost bench's stand-ins for the outside world, in a process of their own (bench/stand-ins.ts starts it): dynalite
// for DynamoDB and the fake Hiro API over a fake chain. Out of the measuring process, their work (answering,
// storing, serializing) is not in its process.cpuUsage(), which is then the function's own work alone. Orders come
// over IPC ('advanced' serialization: the chain's specs carry bigints); each is answered with its id.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startDynalite, type LocalDynamo } from '../test/support/dynalite';
import { createFakeHiro, FakeChain, type FakeHiro, type FakeTxSpec, type RunningFakeHiro } from '../test/support/fake-hiro';

export type StandInOrder =
  | { op: 'createTable'; name: string }
  | { op: 'startChain'; seed: string; burnMsPerRequest?: number }
  | { op: 'mine'; blocks: FakeTxSpec[][] }
  | { op: 'submit'; txs: FakeTxSpec[] }
  | { op: 'requests' }
  | { op: 'cpu' }
  | { op: 'stopChain' };

export type StandInAnswer = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: string };

/** Spends `ms` of this process's CPU, not of wall time (a stand-in made slow on purpose: its work must not show in the function's). */
function burn(ms: number): void {
  const start = process.cpuUsage();
  for (;;) {
    const { user, system } = process.cpuUsage(start);
    if ((user + system) / 1000 >= ms) return;
  }
}

interface Chain {
  fake: FakeHiro;
  server: RunningFakeHiro;
}

async function startChain(seed: string, burnMsPerRequest: number): Promise<Chain> {
  const fake = createFakeHiro({ chain: new FakeChain({ seed }) });
  if (burnMsPerRequest > 0) {
    // The server calls the instance's `handle` for each request: burning before it slows every answer.
    const handle = fake['handle'].bind(fake);
    Object.assign(fake, {
      handle: (req: IncomingMessage, res: ServerResponse) => {
        burn(burnMsPerRequest);
        return handle(req, res);
      },
    });
  }
  return { fake, server: await fake.start() };
}

async function main(): Promise<void> {
  const dynamo: LocalDynamo = await startDynalite({ tableName: 'stand-ins' });
  let chain: Chain | undefined;
  const chainOf = (): Chain => {
    if (!chain) throw new Error('no chain started');
    return chain;
  };
  const run = async (order: StandInOrder): Promise<unknown> => {
    switch (order.op) {
      case 'createTable':
        return dynamo.createTable(order.name);
      case 'startChain':
        await chain?.server.close();
        chain = await startChain(order.seed, order.burnMsPerRequest ?? 0);
        return chain.server.url;
      case 'mine':
        for (const txs of order.blocks) chainOf().fake.chain.mine(txs);
        return undefined;
      case 'submit':
        for (const tx of order.txs) chainOf().fake.chain.submit(tx);
        return undefined;
      case 'requests':
        return chainOf().fake.count();
      case 'cpu': {
        const { user, system } = process.cpuUsage();
        return (user + system) / 1000;
      }
      case 'stopChain':
        await chain?.server.close();
        chain = undefined;
        return undefined;
    }
  };
  process.on('message', (message: { id: number; order: StandInOrder }) => {
    run(message.order).then(
      (value) => process.send!({ id: message.id, ok: true, value } satisfies StandInAnswer),
      (error: unknown) => process.send!({ id: message.id, ok: false, error: String(error) } satisfies StandInAnswer),
    );
  });
  // The parent's going away ends this process.
  process.on('disconnect', () => {
    void chain?.server.close();
    void dynamo.close().finally(() => process.exit(0));
  });
  process.send!({ id: 0, ok: true, value: dynamo.endpoint } satisfies StandInAnswer);
}

main().catch((error: unknown) => {
  process.stderr.write(`stand-ins failed: ${String(error)}\n`);
  process.exit(1);
});
