// Publishing to SNS at the SDK edge (aws-sdk-client-mock): batching, per-entry failures, retries.
import 'aws-sdk-client-mock-vitest/extend';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import {
  AuthorizationErrorException,
  InvalidParameterException,
  PublishBatchCommand,
  SNSClient,
  ThrottledException,
  type PublishBatchCommandInput,
  type PublishBatchCommandOutput,
} from '@aws-sdk/client-sns';
import type { Telemetry } from '../../../lambda/core/ports';
import { createSnsPublisher } from '../../../lambda/adapters/sns';
import { SNS_MAX_PAYLOAD_BYTES } from '../../../lambda/adapters/sns/sns-message';
import { entryId } from '../../../lambda/adapters/sns/batches';
import { manyTransfers, rendered } from './outgoing-alerts';

const TopicArn = 'arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts';
const client = new SNSClient({ region: 'us-east-1' });
const sns = mockClient(client);

let sleeps: number[];
let warnings: string[];

function publisher(maxAttempts?: number) {
  const log: Telemetry['log'] = (level, message) => {
    if (level === 'warn') warnings.push(message);
  };
  return createSnsPublisher({ client, topicArn: TopicArn, log, maxAttempts, sleep: async (ms) => void sleeps.push(ms) });
}

/** Every entry accepted, except those `refuse` answers a failure for. */
function answer(refuse: (id: string, call: number) => { Code: string; SenderFault: boolean; Message?: string } | undefined = () => undefined) {
  let call = 0;
  return (input: PublishBatchCommandInput): Partial<PublishBatchCommandOutput> => {
    call++;
    const entries = input.PublishBatchRequestEntries ?? [];
    const failed = entries.flatMap((e) => {
      const failure = refuse(e.Id!, call);
      return failure ? [{ Id: e.Id!, ...failure }] : [];
    });
    const failedIds = new Set(failed.map((f) => f.Id));
    return {
      Successful: entries.filter((e) => !failedIds.has(e.Id!)).map((e) => ({ Id: e.Id!, MessageId: `m-${e.Id}` })),
      Failed: failed,
    };
  };
}

const batchesSent = () => sns.commandCalls(PublishBatchCommand).map((c) => c.args[0].input.PublishBatchRequestEntries ?? []);

beforeEach(() => {
  sns.reset();
  sleeps = [];
  warnings = [];
});

describe('requests', () => {
  it('publishes each alert as a JSON-structured message with its subject and attributes', async () => {
    sns.on(PublishBatchCommand).callsFake(answer());
    expect(await publisher().publish([rendered.contractLog])).toEqual({ failed: [], undeliverable: [] });
    const [entry] = batchesSent()[0] ?? [];
    expect(sns).toHaveReceivedCommandWith(PublishBatchCommand, { TopicArn });
    expect(entry).toEqual({
      Id: expect.stringMatching(/^[A-Za-z0-9_-]{1,80}$/),
      MessageStructure: 'json',
      Message: JSON.stringify({
        default: JSON.stringify(rendered.contractLog.alert),
        email: rendered.contractLog.rendering.email,
        sms: rendered.contractLog.rendering.sms,
      }),
      Subject: '[stacks-watch] print from arkadiko-dao',
      MessageAttributes: {
        type: { DataType: 'String', StringValue: 'contract_log' },
        network: { DataType: 'String', StringValue: 'mainnet' },
        contract_id: { DataType: 'String', StringValue: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-dao' },
        rule: { DataType: 'String', StringValue: 'watcher:contract_log' },
        severity: { DataType: 'String', StringValue: 'warning' },
        sms: { DataType: 'String', StringValue: 'text' },
      },
    });
  });

  it('sends nothing when there is nothing to publish', async () => {
    expect(await publisher().publish([])).toEqual({ failed: [], undeliverable: [] });
    expect(sns).not.toHaveReceivedCommand(PublishBatchCommand);
  });

  it('sends a guarded subject and warns when the rendering broke the SNS rules', async () => {
    sns.on(PublishBatchCommand).callsFake(answer());
    const slipped = { ...rendered.tokenTransfer, rendering: { ...rendered.tokenTransfer.rendering, subject: 'Received\n2,500 STX ✓' } };
    await publisher().publish([slipped]);
    expect(batchesSent()[0]?.[0]?.Subject).toBe('Received 2,500 STX ?');
    expect(warnings).toContain('alert adjusted to fit SNS limits');
  });
});

describe('batching', () => {
  it('sends at most 10 messages per call, each alert once', async () => {
    sns.on(PublishBatchCommand).callsFake(answer());
    const alerts = manyTransfers(23);
    await publisher().publish(alerts);
    const batches = batchesSent();
    expect(batches.map((b) => b.length)).toEqual([10, 10, 3]);
    const sentDefaults = batches.flat().map((e) => (JSON.parse(e.Message!) as { default: string }).default);
    expect(sentDefaults).toEqual(alerts.map((a) => JSON.stringify(a.alert)));
  });

  it('gives every message an id that is valid and unique within its call', async () => {
    sns.on(PublishBatchCommand).callsFake(answer());
    await publisher().publish(manyTransfers(23));
    for (const batch of batchesSent()) {
      const ids = batch.map((e) => e.Id!);
      expect(new Set(ids).size).toBe(ids.length);
      ids.forEach((id) => expect(id).toMatch(/^[A-Za-z0-9_-]{1,80}$/));
    }
  });

  it('splits batches so that none exceeds 256 KiB in all', async () => {
    sns.on(PublishBatchCommand).callsFake(answer());
    await publisher().publish(manyTransfers(7, 100 * 1024));
    const batches = batchesSent();
    expect(batches.map((b) => b.length)).toEqual([2, 2, 2, 1]);
    for (const batch of batches) {
      const bytes = batch.reduce((sum, e) => {
        const attributes = Object.entries(e.MessageAttributes ?? {}).reduce(
          (s, [name, v]) => s + Buffer.byteLength(name) + Buffer.byteLength(v.DataType!) + Buffer.byteLength(v.StringValue!),
          0,
        );
        return sum + Buffer.byteLength(e.Message!) + Buffer.byteLength(e.Subject!) + attributes;
      }, 0);
      expect(bytes).toBeLessThanOrEqual(SNS_MAX_PAYLOAD_BYTES);
    }
  });
});

describe('failures', () => {
  it('retries only the entries SNS failed on its side, then reports success', async () => {
    const alerts = manyTransfers(3);
    sns
      .on(PublishBatchCommand)
      .callsFake(answer((id, call) => (call === 1 && id.startsWith('1-') ? { Code: 'InternalError', SenderFault: false } : undefined)));
    expect(await publisher().publish(alerts)).toEqual({ failed: [], undeliverable: [] });
    expect(batchesSent().map((b) => b.map((e) => e.Id!.split('-')[0]))).toEqual([['0', '1', '2'], ['1']]);
    expect(sleeps).toHaveLength(1);
  });

  it('reports an entry that keeps failing after the last attempt, with the SNS reason', async () => {
    const alerts = manyTransfers(2);
    sns
      .on(PublishBatchCommand)
      .callsFake(answer((id) => (id.startsWith('0-') ? { Code: 'InternalError', SenderFault: false, Message: 'try again' } : undefined)));
    const outcome = await publisher(3).publish(alerts);
    expect(outcome.failed).toEqual([{ key: alerts[0]!.alert.key, reason: 'SNS failed on its side (InternalError): try again (after 3 attempts)' }]);
    expect(sns).toHaveReceivedCommandTimes(PublishBatchCommand, 3);
  });

  it('reports an entry SNS refused as invalid as undeliverable, without retrying it', async () => {
    const alerts = manyTransfers(2);
    sns
      .on(PublishBatchCommand)
      .callsFake(answer((id) => (id.startsWith('1-') ? { Code: 'InvalidParameter', SenderFault: true, Message: 'Invalid parameter: Subject' } : undefined)));
    const outcome = await publisher().publish(alerts);
    expect(outcome).toEqual({
      failed: [],
      undeliverable: [{ key: alerts[1]!.alert.key, reason: 'SNS refused the message as invalid (InvalidParameter): Invalid parameter: Subject' }],
    });
    expect(sns).toHaveReceivedCommandTimes(PublishBatchCommand, 1);
  });

  it('leaves an entry refused for a fault the operator can fix (a KMS key) to the next run, not parked', async () => {
    sns.on(PublishBatchCommand).callsFake(answer(() => ({ Code: 'KMSAccessDenied', SenderFault: true, Message: 'denied' })));
    const outcome = await publisher().publish([rendered.tokenTransfer]);
    expect(outcome.undeliverable).toEqual([]);
    expect(outcome.failed.map((f) => f.key)).toEqual([rendered.tokenTransfer.alert.key]);
  });

  it('finds the invalid message of a call SNS refused whole by sending its entries one a call', async () => {
    const alerts = manyTransfers(3);
    const bad = entryId(1, alerts[1]!.alert.key);
    sns.on(PublishBatchCommand).callsFake((input: PublishBatchCommandInput) => {
      if (input.PublishBatchRequestEntries!.some((e) => e.Id === bad)) {
        throw new InvalidParameterException({ message: 'Invalid parameter: Message too long', $metadata: { httpStatusCode: 400 } });
      }
      return answer()(input);
    });
    const outcome = await publisher().publish(alerts);
    expect(outcome.failed).toEqual([]);
    expect(outcome.undeliverable).toEqual([{ key: alerts[1]!.alert.key, reason: expect.stringMatching(/InvalidParameterException/) }]);
    expect(batchesSent().map((b) => b.length)).toEqual([3, 1, 1, 1]);
    expect(sleeps).toEqual([]);
  });

  it('sends a call that got no answer once more at most, then gives it up as possibly delivered', async () => {
    sns.on(PublishBatchCommand).rejects(Object.assign(new Error('socket hang up'), { name: 'TimeoutError' }));
    const outcome = await publisher(5).publish(manyTransfers(3));
    expect(sns).toHaveReceivedCommandTimes(PublishBatchCommand, 2);
    expect(outcome.failed).toEqual([]);
    expect(outcome.undeliverable).toHaveLength(3);
    expect(outcome.undeliverable[0]?.reason).toMatch(/did not answer two calls carrying it, so it may have been delivered/);
  });

  it('delivers a call that got no answer once when its one resend goes through', async () => {
    sns
      .on(PublishBatchCommand)
      .rejectsOnce(Object.assign(new Error('internal'), { name: 'InternalErrorException', $metadata: { httpStatusCode: 500 } }))
      .callsFake(answer());
    expect(await publisher(5).publish(manyTransfers(2))).toEqual({ failed: [], undeliverable: [] });
    expect(sns).toHaveReceivedCommandTimes(PublishBatchCommand, 2);
  });

  it('keeps retrying a call refused before it reached SNS (connection refused), which can make no copy', async () => {
    sns
      .on(PublishBatchCommand)
      .rejectsOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
      .rejectsOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
      .callsFake(answer());
    expect(await publisher(3).publish(manyTransfers(2))).toEqual({ failed: [], undeliverable: [] });
    expect(sns).toHaveReceivedCommandTimes(PublishBatchCommand, 3);
  });

  it("reports each call's accepted alerts before it makes the next call", async () => {
    const alerts = manyTransfers(23);
    const seen: { reported: number; callsMade: number }[] = [];
    sns.on(PublishBatchCommand).callsFake(answer());
    await publisher().publish(alerts, async (keys) => {
      seen.push({ reported: keys.length, callsMade: sns.commandCalls(PublishBatchCommand).length });
    });
    expect(seen).toEqual([
      { reported: 10, callsMade: 1 },
      { reported: 10, callsMade: 2 },
      { reported: 3, callsMade: 3 },
    ]);
  });

  it('retries a throttled call and reports success once it goes through', async () => {
    sns
      .on(PublishBatchCommand)
      .rejectsOnce(new ThrottledException({ message: 'Rate exceeded', $metadata: { httpStatusCode: 400 } }))
      .callsFake(answer());
    expect(await publisher().publish(manyTransfers(4))).toEqual({ failed: [], undeliverable: [] });
    expect(sns).toHaveReceivedCommandTimes(PublishBatchCommand, 2);
    expect(sleeps).toHaveLength(1);
  });

  it('fails every entry of a call that stays throttled, and only those', async () => {
    const alerts = manyTransfers(12);
    sns.on(PublishBatchCommand).callsFake((input: PublishBatchCommandInput) => {
      if (input.PublishBatchRequestEntries?.length === 2) {
        throw new ThrottledException({ message: 'Rate exceeded', $metadata: { httpStatusCode: 400 } });
      }
      return answer()(input);
    });
    const outcome = await publisher(2).publish(alerts);
    expect(outcome.failed.map((f) => f.key)).toEqual([alerts[10]!.alert.key, alerts[11]!.alert.key]);
    expect(outcome.failed[0]?.reason).toMatch(/^SNS PublishBatch failed \(ThrottledException: Rate exceeded\).*after 2 attempts/);
  });

  it('does not retry a call SNS refuses for good, and says what to fix', async () => {
    sns.on(PublishBatchCommand).rejects(new AuthorizationErrorException({ message: 'not authorized', $metadata: { httpStatusCode: 403 } }));
    const outcome = await publisher().publish([rendered.tokenTransfer]);
    expect(outcome.failed).toEqual([
      { key: rendered.tokenTransfer.alert.key, reason: expect.stringMatching(/may not sns:Publish to arn:aws:sns:us-east-1:123456789012:stacks-watch-alerts/) },
    ]);
    expect(sns).toHaveReceivedCommandTimes(PublishBatchCommand, 1);
  });

  it('retries an entry SNS gave no answer for', async () => {
    let call = 0;
    sns.on(PublishBatchCommand).callsFake((input: PublishBatchCommandInput) => {
      call++;
      const entries = input.PublishBatchRequestEntries ?? [];
      return { Successful: (call === 1 ? entries.slice(0, 1) : entries).map((e) => ({ Id: e.Id, MessageId: 'm' })), Failed: [] };
    });
    expect(await publisher().publish(manyTransfers(2))).toEqual({ failed: [], undeliverable: [] });
    expect(batchesSent().map((b) => b.length)).toEqual([2, 1]);
  });
});
