// `npm start -- --table NAME` keeps the same cycle's state in DynamoDB: here dynalite, reached through the
// standard AWS_ENDPOINT_URL_DYNAMODB variable with the usual credential chain (environment variables).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import { createFakeHiro, fakeAddress, transfer, type RunningFakeHiro } from '../support/fake-hiro';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { jsonLines, runCli } from './run-cli';

describe('the CLI with --table', () => {
  const fake = createFakeHiro();
  const alice = fakeAddress('alice');
  let server: RunningFakeHiro;
  let dynamo: LocalDynamo;
  let dir: string;

  beforeAll(async () => {
    server = await fake.start();
    dynamo = await startDynalite({ tableName: 'cli-state' });
    dir = await mkdtemp(join(tmpdir(), 'stacks-watch-cli-ddb-'));
    await writeFile(join(dir, 'watch.json'), JSON.stringify({ network: 'mainnet', addresses: [alice], startHeight: 1 }));
  });
  afterAll(async () => {
    await server?.close();
    await dynamo?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the cursor and delivery records in the table, so a second run alerts nothing twice', async () => {
    const block = fake.chain.mine([transfer({ to: alice, amount: 3 })]);
    const env = {
      STACKS_API_URL: server.url,
      STACKS_API_RPM: '100000',
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    };
    const args = ['--once', '--json', '--config', join(dir, 'watch.json'), '--table', dynamo.tableName];
    const first = await runCli(args, env);
    expect(first.code, first.stderr).toBe(0);
    expect(jsonLines(first.stdout).map((a) => a.key)).toEqual([`token_transfer:${block.txs[0]!.txId}`]);
    const second = await runCli(args, env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe('');
    const store = createDynamoStateStore({ client: dynamo.client, tableName: dynamo.tableName, network: 'mainnet' });
    expect(await store.readCursor()).toMatchObject({ height: 1, hash: block.hash });

    // `history --table` reads the same records the cycles wrote, as the deployed function's table would be read.
    const history = await runCli(['history', '--json', '--table', dynamo.tableName], env);
    expect(history.code, history.stderr).toBe(0);
    const entries = jsonLines(history.stdout);
    expect(entries.filter((e) => e.type === 'token_transfer')).toEqual([
      expect.objectContaining({ key: `token_transfer:${block.txs[0]!.txId}`, state: 'sent', subject: expect.stringContaining('STX') }),
    ]);
    // The operator notices the runs sent (here: a deprecated route) are listed with their own subject.
    for (const notice of entries.filter((e) => e.type === 'ops')) expect(notice.subject).toMatch(/^operator notice: stacks-watch: /);
    const missing = await runCli(['history', '--table', 'no-such-table'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no DynamoDB table no-such-table');
  });
});
