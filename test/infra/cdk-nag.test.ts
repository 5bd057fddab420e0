import { describe, expect, it } from 'vitest';
import { Stack, Validations } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks, HIPAASecurityChecks, NIST80053R4Checks, NIST80053R5Checks, PCIDSS321Checks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { synthStack, testApp } from './support/synth';

function violationsOf(scope: IConstruct) {
  const report = new AwsSolutionsChecks().validateScope(scope);
  return report.violations.map((v) => `${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
}

/** Every acknowledgement recorded in the tree, as [construct path, rule id, reason]. */
function acknowledgements(scope: IConstruct): [string, string, string][] {
  return scope.node
    .findAll()
    .flatMap((construct) =>
      construct.node.metadata
        .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((entry) =>
          Object.entries(entry.data as Record<string, string>).map(([id, reason]): [string, string, string] => [
            construct.node.path,
            id.replace(/^annotation::/i, ''),
            reason,
          ]),
        ),
    );
}

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unacknowledged in the default stack', () => {
    expect(violationsOf(synthStack().stack)).toEqual([]);
  });

  it('finds nothing unacknowledged with every optional part on: created secret, subscriptions, the loop, dashboard, customer key', () => {
    const { stack } = synthStack({
      createApiKeySecret: true,
      dashboard: true,
      detailedMetrics: true,
      encryptionKey: 'customer',
      latency: 'loop',
      alertEmails: 'alice@example.com',
      alertPhoneNumbers: '+14155550123',
      opsEmails: 'ops@example.com',
      deletionProtection: false,
    });
    expect(violationsOf(stack)).toEqual([]);
  });

  it('finds nothing unacknowledged with an existing secret', () => {
    const { stack } = synthStack({ apiKeySecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:hiro-key-AbCdEf' });
    expect(violationsOf(stack)).toEqual([]);
  });

  it("acknowledges only the dead-letter queue, the created secret, the plain operations topic and the config bucket's access logs, each with its reason", () => {
    const { stack } = synthStack({ createApiKeySecret: true });
    expect(acknowledgements(stack).sort()).toEqual([
      ['StacksWatch/ApiKey', 'AwsSolutions-SMG4', expect.stringMatching(/cannot be rotated .{20,}/)],
      ...['HIPAA.Security', 'NIST.800.53.R4', 'NIST.800.53.R5', 'PCI.DSS.321'].map((pack) => [
        'StacksWatch/Topics/Operations',
        `${pack}-SNSEncryptedKMS`,
        // What the topic carries: the alarms' state changes and the watcher's own notices, not only alarms.
        expect.stringMatching(
          /alarm.* and the watcher's notices \(.*stuck block.*deep reorg.*undeliverable alert.*\).*cannot publish to a topic under the AWS-managed aws\/sns key/,
        ),
      ]),
      // CloudTrail records object writes only as data events, which a trail does not log unless told to.
      ['StacksWatch/WatchConfig/Bucket', 'AwsSolutions-S1', expect.stringMatching(/versions.*CloudTrail.*data events.*not by default/)],
      ['StacksWatch/Watcher/DeadLetters', 'AwsSolutions-SQS3', expect.stringMatching(/dead-letter destination .{20,}/)],
    ]);
  });

  it('leaves no unencrypted topic unacknowledged under the packs that check topic encryption, with either key choice', () => {
    for (const encryptionKey of ['aws-managed', 'customer']) {
      const { stack } = synthStack({ encryptionKey });
      for (const pack of [new HIPAASecurityChecks(), new NIST80053R4Checks(), new NIST80053R5Checks(), new PCIDSS321Checks()]) {
        const unencrypted = pack.validateScope(stack).violations.filter((v) => v.ruleName.endsWith('SNSEncryptedKMS'));
        expect(unencrypted).toEqual([]);
      }
    }
  });

  it('needs no acknowledgement for the operations topic once it is under the customer-managed key', () => {
    const { stack } = synthStack({ encryptionKey: 'customer' });
    expect(
      acknowledgements(stack)
        .map(([, id]) => id)
        .filter((id) => id.endsWith('SNSEncryptedKMS')),
    ).toEqual([]);
  });

  it('does report what is not acknowledged, so a clean report means something', () => {
    const stack = new Stack(testApp(), 'Bare');
    new Queue(stack, 'Plain');
    expect(violationsOf(stack)).toEqual(expect.arrayContaining([expect.stringMatching(/^AwsSolutions-SQS3 at Bare\/Plain/)]));
  });
});
