// `npm run config`: against a local S3 (a real HTTP server speaking its API) and CloudFormation mocked at the
// SDK client, from validate to rollback, and each missing piece named.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runConfigCommand } from '../../scripts/config';
import { createFakeHiro, fakeAddress, fakeContractId, ROUTES, type RunningFakeHiro } from '../support/fake-hiro';
import { startFakeS3, type FakeS3 } from '../support/fake-s3';
import { TESTNET } from './principals';

const BUCKET = 'stackswatch-watchconfigbucket-1a2b3c';
const cloudFormation = mockClient(CloudFormationClient);
const alice = fakeAddress('alice');
const bob = fakeAddress('bob');
const vault = fakeContractId('vault');

describe('npm run config', () => {
  let s3: FakeS3;
  let dir: string;
  let out: string[];
  let err: string[];
  const clients: S3Client[] = [];
  const run = (...argv: string[]) =>
    runConfigCommand(argv, {
      s3: () => {
        const client = new S3Client({
          endpoint: s3.endpoint,
          region: 'us-east-1',
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
          maxAttempts: 1,
        });
        clients.push(client);
        return client;
      },
      cloudFormation: () => new CloudFormationClient({ region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      cwd: dir,
      env: {},
    });
  const write = (name: string, config: unknown) => writeFileSync(join(dir, name), JSON.stringify(config, null, 2));
  const live = () => JSON.parse(s3.versions(BUCKET, 'watch.json').at(-1)!.body.toString()) as Record<string, unknown>;

  beforeAll(async () => {
    s3 = await startFakeS3();
    dir = mkdtempSync(join(tmpdir(), 'stacks-watch-config-'));
  });
  afterAll(async () => {
    for (const client of clients) client.destroy();
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    out = [];
    err = [];
    s3.failWith(undefined);
    cloudFormation.reset();
    cloudFormation.on(DescribeStacksCommand, { StackName: 'StacksWatch' }).resolves({
      Stacks: [
        {
          StackName: 'StacksWatch',
          CreationTime: new Date(),
          StackStatus: 'UPDATE_COMPLETE',
          Outputs: [
            { OutputKey: 'WatchConfigBucketName', OutputValue: BUCKET },
            { OutputKey: 'WatchConfigKey', OutputValue: 'watch.json' },
          ],
        },
      ],
    });
  });

  it("validates a file with the watcher's validator: every problem with its path, exit 2", async () => {
    write('bad.json', { network: 'mainnet', addresses: ['SP000'], transfers: [{ asset: 'STX', to: [alice] }] });
    expect(await run('validate', 'bad.json')).toBe(2);
    expect(err.join('\n')).toMatch(/2 problems[^]*\$\.addresses\[0\][^]*\$\.transfers\[0\]\.asset/);
    write('watch.json', { network: 'mainnet', addresses: [alice], startHeight: 100 });
    expect(await run('validate')).toBe(0);
    expect(out).toEqual([`${join(dir, 'watch.json')}: valid (mainnet; 1 addresses)`]);
  });

  it("says what the one-minute runs' request budget carries of the balance rules, and warns past it", async () => {
    const balances = (count: number) => Array.from({ length: count }, (_, i) => ({ address: fakeAddress(`validate-${i}`), asset: 'stx', below: '1,000 STX' }));
    write('few.json', { network: 'mainnet', balances: balances(3) });
    expect(await run('validate', 'few.json')).toBe(0);
    expect(out[1]).toBe(
      '- balance reads: the balance rules read 3 addresses, all in the first run (a run reads up to 10 without an API key, 100 with one: a fifth of the request budget)',
    );
    write('many.json', { network: 'mainnet', balances: balances(150) });
    expect(await run('validate', 'many.json')).toBe(0);
    expect(out[3]).toMatch(
      /^warning: the balance rules read 150 addresses, more than a run reads .*: they start over 15 runs \(about 15 min\) without a key, 2 runs \(about 2 min\) with one/,
    );
  });

  it('warns, while validating, of an STX amount under 1 STX written without a unit', async () => {
    write('low.json', { network: 'mainnet', balances: [{ address: alice, asset: 'stx', below: '10000' }] });
    expect(await run('validate', 'low.json')).toBe(0);
    expect(out).toEqual([
      `${join(dir, 'low.json')}: valid (mainnet; 1 balances)`,
      expect.stringMatching(/^- balance reads: /),
      expect.stringMatching(/^warning: \$\.balances\[0\]\.below is 10000 without a unit.*did you mean "10,000 STX"\?/),
    ]);
  });

  it('pushes a valid file as a new version and prints it, and refuses an invalid one before it is stored', async () => {
    expect(await run('push')).toBe(0);
    const first = s3.versions(BUCKET, 'watch.json')[0]!;
    expect(out[0]).toContain(`as version ${first.versionId}`);
    write('bad.json', { network: 'mainnet', addresses: ['SP000'] });
    expect(await run('push', 'bad.json')).toBe(2);
    expect(s3.versions(BUCKET, 'watch.json')).toHaveLength(1);
    expect(await run('push')).toBe(0);
    expect(out.at(-1)).toBe(`nothing to push: ${join(dir, 'watch.json')} is the live version ${first.versionId}`);
  });

  it('says in words what a file changes against the live version: rules by name, addresses by count', async () => {
    write('next.json', {
      network: 'mainnet',
      addresses: [alice, bob],
      contractLogs: [{ name: 'Vault prints', contractId: vault }],
      startHeight: 100,
      confirmations: 2,
    });
    expect(await run('diff', 'next.json')).toBe(0);
    expect(out.slice(1)).toEqual([`  addresses: 1 entry added (${bob})`, '  contractLogs: rule added: "Vault prints"', '  confirmations: set to 2']);
    expect(await run('push', 'next.json')).toBe(0);
    write('renamed.json', {
      network: 'mainnet',
      addresses: [alice],
      contractLogs: [{ name: 'Vault prints', contractId: vault, contains: 'withdraw' }],
      startHeight: 100,
    });
    out = [];
    await run('diff', 'renamed.json');
    expect(out.slice(1)).toEqual([`  addresses: 1 entry removed (${bob})`, '  contractLogs: rule changed: "Vault prints"', '  confirmations: removed (was 2)']);
  });

  it('refuses a push that changes network or startHeight, as the watcher would, and stores nothing', async () => {
    const before = s3.versions(BUCKET, 'watch.json').length;
    write('moved.json', { ...live(), startHeight: 5 });
    expect(await run('push', 'moved.json')).toBe(2);
    expect(err.join('\n')).toMatch(/was not pushed: the watcher would refuse it[^]*\$\.startHeight: startHeight was 100/);
    expect(s3.versions(BUCKET, 'watch.json')).toHaveLength(before);
  });

  it('refuses a push that changes network alone, naming the network, and stores nothing', async () => {
    const before = s3.versions(BUCKET, 'watch.json').length;
    write('testnet.json', { network: 'testnet', addresses: [TESTNET.boot], startHeight: live().startHeight });
    expect(await run('push', 'testnet.json')).toBe(2);
    expect(err.join('\n')).toMatch(/was not pushed: the watcher would refuse it[^]*\$\.network: the watcher runs on mainnet/);
    expect(err.join('\n')).not.toMatch(/\$\.startHeight/);
    expect(s3.versions(BUCKET, 'watch.json')).toHaveLength(before);
  });

  it('lists the history newest first, and rolls back by copying an earlier version as the new live one', async () => {
    const [first, second] = s3.versions(BUCKET, 'watch.json');
    expect(await run('history')).toBe(0);
    expect(out[0]).toMatch(new RegExp(`^${second!.versionId} .* \\(live\\)$`));
    expect(out[1]).toMatch(new RegExp(`^${first!.versionId} `));
    out = [];
    expect(await run('rollback', first!.versionId)).toBe(0);
    const versions = s3.versions(BUCKET, 'watch.json');
    expect(versions).toHaveLength(3);
    expect(versions[2]!.body.toString()).toBe(first!.body.toString());
    expect(out[0]).toBe(
      `restored version ${first!.versionId} as the new live version ${versions[2]!.versionId} (was ${second!.versionId}); the watcher uses it from its next run`,
    );
  });

  it('compares against a live version that is not JSON as if it were empty, instead of failing', async () => {
    s3.put(BUCKET, 'watch.json', '{ "network": "mainnet", oops');
    write('fixed.json', { network: 'mainnet', addresses: [alice], startHeight: 100 });
    expect(await run('diff', 'fixed.json')).toBe(0);
    expect(out.slice(1)).toContain('  addresses: 1 entry added (' + alice + ')');
    expect(await run('push', 'fixed.json')).toBe(0);
  });

  it('writes a starter config from flags, valid by construction, and refuses a mistyped address', async () => {
    expect(await run('init', '--address', alice, '--contract', vault, '--out', 'starter.json')).toBe(0);
    const starter = JSON.parse(readFileSync(join(dir, 'starter.json'), 'utf8')) as Record<string, unknown>;
    expect(starter).toMatchObject({
      network: 'mainnet',
      contracts: [vault],
      transfers: [expect.objectContaining({ asset: '*', to: [alice] }), expect.objectContaining({ asset: '*', from: [alice] })],
      contractLogs: [expect.objectContaining({ contractId: vault })],
      calls: [expect.objectContaining({ contractId: vault, status: 'failed' })],
    });
    expect(await run('validate', 'starter.json')).toBe(0);
    expect(await run('init', '--address', `${alice.slice(0, -1)}X`, '--out', 'typo.json')).toBe(2);
    expect(err.at(-1)).toMatch(/is not a valid Stacks address/);
    expect(await run('init', '--network', 'testnet', '--out', 'starter.json')).toBe(1);
    expect(err.at(-1)).toMatch(/exists: pass --force/);
  });

  it('refuses a file nested thousands deep with exit 2 and the place, instead of overflowing the stack', async () => {
    const where = `${'{"not":'.repeat(2_500)}{"a":1}${'}'.repeat(2_500)}`;
    writeFileSync(join(dir, 'deep.json'), `{"network":"mainnet","contractLogs":[{"contractId":"${vault}","where":${where}}]}`);
    expect(await run('validate', 'deep.json')).toBe(2);
    expect(err.join('\n')).toMatch(/1 problem[^]*\$\.contractLogs\[0\]\.where: nests arrays and objects more than 64 deep/);
  });

  it('refuses a file past the ceilings of the default memory, naming the memory that holds it, and pushes nothing', async () => {
    write('many.json', { network: 'mainnet', addresses: Array<string>(250_001).fill(alice), startHeight: 100 });
    expect(await run('validate', 'many.json')).toBe(2);
    expect(err.join('\n')).toMatch(
      /1 problem[^]*\$\.addresses: lists 250,001 addresses; a function of 256 MB holds at most 250,000: deploy with memorySize 384 or more/,
    );
    const before = s3.versions(BUCKET, 'watch.json').length;
    expect(await run('push', 'many.json')).toBe(2);
    expect(s3.versions(BUCKET, 'watch.json')).toHaveLength(before);
  });

  it("checks the ceilings of the memory the stack deploys: deploy.json's memorySize, or -c memorySize=…", async () => {
    // 9 MiB: within a 256 MB function's 16 MiB, past a 128 MB function's 8 MiB.
    write('long.json', { network: 'mainnet', addresses: [alice], $comment: 'x'.repeat(9 * 2 ** 20) });
    writeFileSync(join(dir, 'deploy.json'), JSON.stringify({ memorySize: 128 }));
    try {
      expect(await run('validate', 'long.json')).toBe(2);
      expect(err.join('\n')).toMatch(/is 9,437,\d{3} bytes; a function of 128 MB reads at most 8,388,608: deploy with memorySize 256 or more/);
      expect(await run('validate', 'long.json', '-c', 'memorySize=256')).toBe(0);
    } finally {
      rmSync(join(dir, 'deploy.json'));
    }
    expect(await run('validate', 'long.json')).toBe(0);
  });

  it('names what is missing: the stack, its output, the credentials, the permission', async () => {
    cloudFormation
      .on(DescribeStacksCommand, { StackName: 'Other' })
      .rejects(Object.assign(new Error('Stack with id Other does not exist'), { name: 'ValidationError' }));
    expect(await run('history', '-c', 'stackName=Other')).toBe(1);
    expect(err.at(-1)).toMatch(/^no stack named Other in us-east-1: deploy it first/);

    cloudFormation
      .on(DescribeStacksCommand, { StackName: 'Old' })
      .resolves({ Stacks: [{ StackName: 'Old', CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE', Outputs: [] }] });
    expect(await run('history', '-c', 'stackName=Old')).toBe(1);
    expect(err.at(-1)).toMatch(/the stack Old has no WatchConfigBucketName output/);

    cloudFormation
      .on(DescribeStacksCommand, { StackName: 'StacksWatch' })
      .rejects(Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }));
    expect(await run('history')).toBe(1);
    expect(err.at(-1)).toMatch(/^no AWS credentials found/);

    cloudFormation.reset();
    cloudFormation.on(DescribeStacksCommand).resolves({
      Stacks: [
        {
          StackName: 'StacksWatch',
          CreationTime: new Date(),
          StackStatus: 'UPDATE_COMPLETE',
          Outputs: [{ OutputKey: 'WatchConfigBucketName', OutputValue: BUCKET }],
        },
      ],
    });
    s3.failWith(403, 'AccessDenied');
    expect(await run('push')).toBe(1);
    expect(err.at(-1)).toMatch(/^no permission to read s3:\/\/.*\/watch.json/);
  });

  describe('a token amount written in a unit whose decimals only the token metadata gives', () => {
    const alex = `${fakeContractId('token-alex')}::alex`;
    const mystery = `${fakeContractId('mystery-token')}::mystery`;
    const withToken = (asset: string, unit: string) => ({ network: 'mainnet', balances: [{ address: alice, asset, below: `5 ${unit}` }] });
    const fake = createFakeHiro();
    let api: RunningFakeHiro;
    beforeAll(async () => {
      fake.chain.setTokenMetadata(alex, { decimals: 8, symbol: 'ALEX' });
      api = await fake.start();
    });
    afterAll(async () => {
      await api.close();
    });

    it('is valid offline, asking no API, with a warning that the function reads the decimals at its first run', async () => {
      write('alex.json', withToken(alex, 'ALEX'));
      expect(await run('validate', 'alex.json')).toBe(0);
      expect(err).toEqual([]);
      expect(out[0]).toBe(`${join(dir, 'alex.json')}: valid (mainnet; 1 balances)`);
      expect(out).toContain(
        `warning: ${alex}'s decimals are read from its token metadata at the function's first run (no API was asked here: --api URL reads them now, or give "decimals" in the rule)`,
      );
      expect(fake.count(ROUTES.tokenMetadata)).toBe(0);
    });

    it('reads the decimals with --api and validates in full: a token the API knows is valid, one it does not know is refused naming it', async () => {
      write('alex.json', withToken(alex, 'ALEX'));
      expect(await run('validate', 'alex.json', '--api', api.url)).toBe(0);
      expect(out.join('\n')).not.toContain("function's first run");
      expect(out).toContain(`- ${alex}: 8 decimals, symbol ALEX, from the token metadata at ${api.url}`);
      write('mystery.json', withToken(mystery, 'MYST'));
      expect(await run('validate', 'mystery.json', '--api', api.url)).toBe(2);
      expect(err.join('\n')).toContain(`${mystery}'s decimals are not in the token metadata API`);
      expect(err.join('\n')).toContain('give "decimals"');
    });

    it('pushes it offline with the same warning', async () => {
      // The live version's network and startHeight kept: a push may not change them.
      const next = { ...live(), balances: withToken(alex, 'ALEX').balances };
      write('alex.json', next);
      expect(await run('push', 'alex.json')).toBe(0);
      expect(out.join('\n')).toContain('pushed');
      expect(out.join('\n')).toContain(`${alex}'s decimals are read from its token metadata at the function's first run`);
      expect(live()).toEqual(next);
    });
  });
});
