// What a loop turn reads (docs/latency.md): the real handler over a fake Hiro server, DynamoDB on dynalite (its
// requests counted at the server) and the live watch config on a local S3 stand-in, SQS mocked at the client.
// A queued turn reads one DynamoDB item, the cursor item; the SMS record only when it has an alert to route; and
// the config store only when the schedule's tick flagged a version its container has not read.
import { SNSClient, type PublishCommandInput } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { InvocationResult } from '../../lambda/handler';
import { contractCall, createFakeHiro, fakeAddress, fakeContractId, transfer } from '../support/fake-hiro';
import { startFakeS3, type FakeS3 } from '../support/fake-s3';
import type { DynamoRequest } from '../support/dynalite';
import { alertOf, importHandler, type LambdaHandler, logLinesOf, recordOperatorNotices } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';
import { loopOnDynalite, scheduleTick as tick, turnEvent } from '../support/loop-environment';

const DELAY_SECONDS = 8;
const TURN_SECONDS = 20;
const OPS_TOPIC_ARN = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-ops';
const BUCKET = 'stacks-watch-config';
const KEY = 'watch.json';
const alice = fakeAddress('alice');
const vault = fakeContractId('vault');
const base = { network: 'mainnet', addresses: [alice], startHeight: 1, smsPerRun: 1 };

const sns = mockClient(SNSClient);
const sqs = mockClient(SQSClient);

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
/** The item a request names: `pk/sk`. */
const itemOf = (r: DynamoRequest) => {
  const key = (r.body.Key ?? r.body.Item) as { pk?: { S?: string }; sk?: { S?: string } } | undefined;
  return key ? `${key.pk?.S}/${key.sk?.S}` : r.operation;
};

describe('a loop turn reads the cursor item alone, and the ticks alone ask the watch config store', () => {
  const fake = createFakeHiro();
  let s3: FakeS3;
  const notices: PublishCommandInput[] = [];
  const loop = loopOnDynalite({
    fake,
    sns,
    sqs,
    tableName: 'stacks-watch-loop-reads',
    delaySeconds: DELAY_SECONDS,
    turnSeconds: TURN_SECONDS,
    startAt: '2026-11-25T12:00:00Z',
    beforeColdStart: async () => {
      s3 = await startFakeS3();
      s3.put(BUCKET, KEY, JSON.stringify(base));
    },
    extra: () => ({ OPS_TOPIC_ARN, WATCH_CONFIG_BUCKET: BUCKET, WATCH_CONFIG_KEY: KEY, AWS_ENDPOINT_URL_S3: s3.endpoint }),
  });
  const { lambda, invoke, later } = loop;
  const push = (config: unknown) => s3.put(BUCKET, KEY, JSON.stringify(config));
  // The ticks run in the block's container (`invoke(tick)`), the turns in a second one, warm after its first turn.
  let turns: LambdaHandler | undefined;
  let runs = 0;
  /** The next queued turn, in the turns' container, under a run id of its own. */
  const nextTurn = async (runId = `turn-${++runs}`) => {
    turns ??= await importHandler();
    return turns(turnEvent(loop.lastTurn()), lambdaContext(runId, 120_000));
  };
  /** What one invocation asked of DynamoDB and S3. */
  async function counted(run: () => Promise<InvocationResult>) {
    const dynamo = lambda.dynamo.requests.length;
    const store = s3.requests.length;
    const result = await run();
    await new Promise((resolve) => setImmediate(resolve)); // the server records a request at its body's end
    const requests = lambda.dynamo.requests.slice(dynamo);
    return {
      result,
      reads: requests.filter((r) => READS.has(r.operation)).map(itemOf),
      writes: requests.filter((r) => WRITES.has(r.operation)).map(itemOf),
      s3: s3.requests.slice(store),
    };
  }
  /** The summary line of a run that published (a quiet turn's is at debug). */
  const doneLine = (runId: string) => logLinesOf(lambda.output).find((l) => l.runId === runId && l.message === 'invocation done');
  const alertKeys = () => lambda.published.map((e) => alertOf(e).key);
  let good = '';

  afterAll(async () => {
    await s3?.close();
  });
  beforeEach(() => {
    recordOperatorNotices(sns, notices);
  });

  it('reads one DynamoDB item and makes no S3 request in a quiet turn, and the SMS record only in a turn with an alert', async () => {
    fake.chain.mine([transfer({ to: alice, amount: 1_000_000 })]);
    await invoke(tick); // starts the loop; its first turn texts the alert
    later(DELAY_SECONDS * 1000);
    await nextTurn(); // the turns' container starts cold: it reads the config
    later(DELAY_SECONDS * 1000);
    const quiet = await counted(() => nextTurn());
    expect(quiet.reads).toEqual(['NET#mainnet/CURSOR']);
    expect(quiet.writes).toEqual([]);
    expect(quiet.s3).toEqual([]);

    later(DELAY_SECONDS * 1000);
    fake.chain.mine([transfer({ to: alice, amount: 2_000_000 })]);
    const busy = await counted(() => nextTurn());
    expect(busy.reads.filter((item) => item === 'NET#mainnet/CURSOR')).toHaveLength(1);
    expect(busy.reads).toContain('NET#mainnet/SMS');
    expect(busy.s3).toEqual([]);
    expect(lambda.published.map((e) => e.MessageAttributes?.sms?.StringValue)).toEqual(['text', 'held']);
  });

  it("leaves an ended minute's digest to a note of the tick: quiet turns read no SMS record, the turn after the note sends it once", async () => {
    for (let i = 0; i < 7; i++) {
      later(DELAY_SECONDS * 1000); // past the minute of the held alert: quiet turns send nothing
      expect((await counted(() => nextTurn())).reads).toEqual(['NET#mainnet/CURSOR']);
    }
    expect(lambda.published).toHaveLength(2);
    later(1_000);
    const noting = await counted(() => invoke(tick));
    expect(noting.reads).toEqual(['NET#mainnet/CURSOR', 'NET#mainnet/SMS']);
    expect(noting.writes).toEqual(['NET#mainnet/CURSOR']);
    expect(lambda.published).toHaveLength(2);

    later(DELAY_SECONDS * 1000);
    const sending = await counted(() => nextTurn());
    expect(sending.reads).toContain('NET#mainnet/SMS');
    expect(lambda.published.map((e) => e.MessageAttributes?.sms?.StringValue)).toEqual(['text', 'held', 'digest']);
    later(1_000);
    expect((await counted(() => invoke(tick))).writes).toEqual(['NET#mainnet/CURSOR']); // the note taken off
    later(DELAY_SECONDS * 1000);
    expect((await counted(() => nextTurn())).reads).toEqual(['NET#mainnet/CURSOR']);
    expect(lambda.published).toHaveLength(3);
  });

  it('flags a pushed version at the next tick (one write), and the next turn takes it with one request to the store', async () => {
    const v2 = push({ ...base, contractLogs: [{ contractId: vault }] });
    later(DELAY_SECONDS * 1000);
    expect((await counted(() => nextTurn())).s3).toEqual([]); // not flagged yet: the turn asks nothing

    later(1_000);
    const ticked = await counted(() => invoke(tick));
    expect(ticked.result).toEqual({ loopTurnSkipped: 'loop-alive' });
    expect(ticked.s3).toEqual([expect.objectContaining({ method: 'GET', status: 200 })]);
    expect(ticked.writes).toEqual(['WATCH_CONFIG/MEMO', 'NET#mainnet/CURSOR']); // the memo, as every run taking a version
    later(1_000);
    expect((await counted(() => invoke(tick))).writes).toEqual([]); // the same version: no write

    const logged = fake.chain.mine([contractCall({ contractId: vault, logs: ['after the push'] })]);
    later(DELAY_SECONDS * 1000);
    const taking = await counted(() => nextTurn('taking'));
    expect(taking.s3).toEqual([expect.objectContaining({ method: 'GET', status: 200 })]);
    expect(alertKeys()).toContain(`contract_log:${logged.txs[0]!.txId}:0`);
    expect(doneLine('taking')).toMatchObject({ watchConfigVersion: v2.versionId });
    good = v2.versionId;

    later(DELAY_SECONDS * 1000);
    expect((await counted(() => nextTurn())).s3).toEqual([]);
  });

  it('never runs a refused version: the tick tells the operator once, the turn that follows its flag keeps the last good one', async () => {
    const bad = push({ ...base, contractLogs: [{ contractId: vault }], addresses: ['SP000'] });
    later(DELAY_SECONDS * 1000);
    await invoke(tick);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.Message).toContain(bad.versionId);

    const logged = fake.chain.mine([contractCall({ contractId: vault, logs: ['still watched'] })]);
    later(DELAY_SECONDS * 1000);
    const following = await counted(() => nextTurn('following'));
    expect(following.s3).toHaveLength(1);
    expect(alertKeys()).toContain(`contract_log:${logged.txs[0]!.txId}:0`);
    expect(doneLine('following')).toMatchObject({ watchConfigVersion: good, watchConfigRejected: { versionId: bad.versionId } });
    expect(notices).toHaveLength(1); // the tick told; the turns' container does not tell again

    later(DELAY_SECONDS * 1000);
    expect((await counted(() => nextTurn())).s3).toEqual([]);
  });
});
