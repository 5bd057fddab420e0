// The watcher function never loads the undici Node bundles behind its global fetch (about 9.5 MB resident, a
// tenth of a 128 MB function's peak): the handler bundled as the stack bundles it runs a scheduled invocation in
// a fresh Node process, reading blocks from the fake Hiro API and sBTC records from the fake Emily, writing
// dynalite and publishing to a local SNS endpoint, and then says whether Node ever loaded its undici module.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../../bench/bundle';
import { startFakeSns, type FakeSns } from '../../bench/fake-sns';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { createFakeEmily, depositJson } from '../support/fake-emily';
import { createFakeHiro, fakeAddress, transfer } from '../support/fake-hiro';

const run = promisify(execFile);
const alice = fakeAddress('alice');

/** Whether Node has loaded its bundled undici: the module list names every internal module once it is loaded. */
const UNDICI_LOADED = "process.moduleLoadList.some((name) => name.includes('internal/deps/undici'))";

const CHILD = `
const undiciLoaded = () => ${UNDICI_LOADED};
const { handler } = await import(process.argv[2]);
const afterLoad = undiciLoaded();
const context = { awsRequestId: 'no-undici', functionName: 'stacks-watch', getRemainingTimeInMillis: () => 60000 };
const summary = await handler({}, context);
process.stdout.write('\\n' + JSON.stringify({ afterLoad, afterRun: undiciLoaded(), blocks: summary.blocksScanned, alerts: summary.alertsPublished }));
`;

async function nodeSays(args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run(process.execPath, args, { env: { PATH: process.env.PATH, NODE_NO_WARNINGS: '1', ...env }, timeout: 25_000 });
  return stdout;
}

describe('the watcher function', () => {
  let dir: string;
  let dynamo: LocalDynamo;
  let sns: FakeSns;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stacks-watch-no-undici-'));
    [dynamo, sns] = await Promise.all([
      startDynalite({ tableName: 'stacks-watch-no-undici' }),
      startFakeSns(),
      bundle('lambda/handler.ts', join(dir, 'index.mjs')),
    ]);
    await writeFile(join(dir, 'child.mjs'), CHILD);
  });
  afterAll(async () => {
    await Promise.all([dynamo?.close(), sns?.close(), rm(dir, { recursive: true, force: true })]);
  });

  it('is told apart from a process that used fetch: the probe sees undici once Headers is used', async () => {
    expect(await nodeSays(['-e', `process.stdout.write(String(${UNDICI_LOADED}))`])).toBe('false');
    expect(await nodeSays(['-e', `new Headers(); process.stdout.write(String(${UNDICI_LOADED}))`])).toBe('true');
  });

  it('reads the chain and Emily, and publishes, without loading undici', async () => {
    const hiro = createFakeHiro();
    const emily = createFakeEmily();
    emily.putDeposit(depositJson({ seed: 'no-undici' }));
    hiro.chain.mine([]);
    const startHeight = hiro.chain.height + 1;
    for (let i = 0; i < 3; i += 1) hiro.chain.mine([transfer({ to: alice, amount: 1_000 + i })]);
    const [hiroServer, emilyServer] = await Promise.all([hiro.start(), emily.start()]);
    try {
      const said = await nodeSays([join(dir, 'child.mjs'), pathToFileURL(join(dir, 'index.mjs')).href], {
        TABLE_NAME: dynamo.tableName,
        TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts',
        STACKS_API_URL: hiroServer.url,
        EMILY_API_URL: emilyServer.url,
        WATCH_CONFIG: JSON.stringify({ network: 'mainnet', startHeight, addresses: [alice], sbtcLifecycle: {} }),
        POWERTOOLS_LOG_LEVEL: 'ERROR',
        AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
        AWS_ENDPOINT_URL_SNS: sns.endpoint,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
      });

      // The function logs on stdout too: its figures are the last line.
      expect(JSON.parse(said.trim().split('\n').at(-1)!)).toEqual({ afterLoad: false, afterRun: false, blocks: 3, alerts: 3 });
      expect(hiro.count()).toBeGreaterThan(0);
      expect(emily.requests.length).toBeGreaterThan(0);
      expect(sns.published()).toBe(3);
    } finally {
      await Promise.all([hiroServer.close(), emilyServer.close()]);
    }
  });
});
