// `npm start -- --table NAME` keeps the same cycle's state in DynamoDB: here dynalite, reached through the
// standard AWS_ENDPOINT_URL_DYNAMODB variable with the usual credential chain (environment variables).
import { afterAll, describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import { fakeAddress, transfer } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { jsonLines } from './run-cli';

describe('the CLI with --table', () => {
  const alice = fakeAddress('alice');
  let dynamo: LocalDynamo;
  const suite = cliSuite({
    name: 'cli-ddb',
    config: { network: 'mainnet', addresses: [alice], startHeight: 1 },
    setup: async () => {
      dynamo = await startDynalite({ tableName: 'cli-state' });
    },
  });
  const { fake } = suite;
  afterAll(async () => {
    await dynamo?.close();
  });

  it('keeps the cursor and delivery records in the table, so a second run alerts nothing twice', async () => {
    const block = fake.chain.mine([transfer({ to: alice, amount: 3 })]);
    const env = { AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };
    const run = (args: string[]) => suite.run(args, { env });
    const args = ['--once', '--json', '--config', suite.configPath, '--table', dynamo.tableName];
    const first = await run(args);
    expect(first.code, first.stderr).toBe(0);
    expect(jsonLines(first.stdout).map((a) => a.key)).toEqual([`token_transfer:${block.txs[0]!.txId}`]);
    const second = await run(args);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe('');
    const store = createDynamoStateStore({ client: dynamo.client, tableName: dynamo.tableName, network: 'mainnet' });
    expect(await store.readCursor()).toMatchObject({ height: 1, hash: block.hash });

    // `history --table` reads the same records the cycles wrote, as the deployed function's table would be read.
    const history = await run(['history', '--json', '--table', dynamo.tableName]);
    expect(history.code, history.stderr).toBe(0);
    const entries = jsonLines(history.stdout);
    expect(entries.filter((e) => e.type === 'token_transfer')).toEqual([
      expect.objectContaining({ key: `token_transfer:${block.txs[0]!.txId}`, state: 'sent', subject: expect.stringContaining('STX') }),
    ]);
    // The operator notices the runs sent (here: a deprecated route) are listed with their own subject.
    for (const notice of entries.filter((e) => e.type === 'ops')) expect(notice.subject).toMatch(/^operator notice: stacks-watch: /);
    const missing = await run(['history', '--table', 'no-such-table']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no DynamoDB table no-such-table');
  });
});
