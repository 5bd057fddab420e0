import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from '../../lambda/local/args';
import { createProgressReporter, formatEta } from '../../lambda/local/progress';
import { readApiSettings } from '../../lambda/runtime/api-env';
import { readLambdaSettings } from '../../lambda/runtime/lambda-env';
import { parseLogLevel } from '../../lambda/local/stderr-telemetry';

describe('command line', () => {
  it('has the documented defaults', () => {
    expect(parseCliArgs([])).toEqual({
      help: false,
      version: false,
      check: false,
      status: false,
      config: './watch.json',
      state: '.stacks-watch/state.json',
      once: false,
      networkCheck: true,
      json: false,
      intervalSeconds: 30,
    });
  });

  it('rejects an unknown option and a bad interval as usage errors', () => {
    expect(() => parseCliArgs(['--onse'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--interval', '0'])).toThrow(/--interval must be/);
  });

  it('accepts a DynamoDB table and an SNS topic ARN, and rejects a malformed ARN', () => {
    expect(parseCliArgs(['--table', 'watch-state', '--topic', 'arn:aws:sns:eu-west-1:123456789012:alerts'])).toMatchObject({
      table: 'watch-state',
      topic: 'arn:aws:sns:eu-west-1:123456789012:alerts',
    });
    expect(() => parseCliArgs(['--topic', 'alerts'])).toThrow(/SNS topic ARN/);
  });
});

describe('--replay', () => {
  it('takes one height or an inclusive range FROM..TO', () => {
    expect(parseCliArgs(['--replay', '182000..182100']).replay).toEqual({ from: 182000, to: 182100 });
    expect(parseCliArgs(['--replay', '7']).replay).toEqual({ from: 7, to: 7 });
    expect(parseCliArgs([]).replay).toBeUndefined();
    expect(parseCliArgs(['--no-network-check']).networkCheck).toBe(false);
  });

  it('refuses a malformed, backwards or too long range, and options that need state or a topic', () => {
    expect(() => parseCliArgs(['--replay', '10-20'])).toThrow(/a block height or a range FROM\.\.TO/);
    expect(() => parseCliArgs(['--replay', '-5'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--replay', '20..10'])).toThrow(/ends before it starts/);
    expect(() => parseCliArgs(['--replay', '1..10001'])).toThrow(/at most 10000 blocks/);
    expect(() => parseCliArgs(['--replay', '1..2', '--topic', 'arn:aws:sns:eu-west-1:123456789012:alerts'])).toThrow(/does not combine/);
    expect(() => parseCliArgs(['--replay', '1..2', '--once'])).toThrow(/does not combine/);
  });
});

describe('log level', () => {
  it('accepts the four levels in any case, defaults to info, and names an unknown one', () => {
    expect(parseLogLevel(undefined)).toBe('info');
    expect(parseLogLevel('')).toBe('info');
    expect(parseLogLevel('WARN')).toBe('warn');
    expect(() => parseLogLevel('verbose')).toThrow('LOG_LEVEL must be one of debug, info, warn, error, got "verbose"');
  });
});

describe('API settings from the environment', () => {
  it("follows the watched network: Hiro's testnet API for testnet, unless STACKS_API_URL says otherwise", () => {
    expect(readApiSettings({}, undefined, 'testnet').baseUrl).toBe('https://api.testnet.hiro.so');
    expect(readApiSettings({}, undefined, 'mainnet').baseUrl).toBe('https://api.hiro.so');
    expect(readApiSettings({ STACKS_API_URL: 'http://localhost:3999' }, undefined, 'testnet').baseUrl).toBe('http://localhost:3999');
  });

  it('defaults to Hiro mainnet at 50 requests a minute without a key, 500 with one', () => {
    expect(readApiSettings({})).toEqual({ baseUrl: 'https://api.hiro.so', requestsPerMinute: 50 });
    expect(readApiSettings({ STACKS_API_KEY: 'k' })).toEqual({ baseUrl: 'https://api.hiro.so', requestsPerMinute: 500, apiKey: 'k' });
  });

  it('names STACKS_API_RPM when it is not a whole number', () => {
    expect(() => readApiSettings({ STACKS_API_RPM: '12.5' })).toThrow(/STACKS_API_RPM .*"12.5"/);
  });
});

describe('Lambda settings from the environment', () => {
  const base = { TABLE_NAME: 't', TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:alerts' };

  it('reports every missing or malformed variable at once', () => {
    expect(() => readLambdaSettings({ STACKS_API_KEY_SECRET_ARN: 'key', RUN_SECONDS: '-1' })).toThrow(
      /TABLE_NAME is not set[\s\S]*TOPIC_ARN is not set[\s\S]*STACKS_API_KEY_SECRET_ARN[\s\S]*RUN_SECONDS/,
    );
  });

  it('reads an optional per-invocation work time, and names a bad one', () => {
    expect(readLambdaSettings({ ...base, RUN_SECONDS: '50' }).runSeconds).toBe(50);
    expect(readLambdaSettings(base).runSeconds).toBeUndefined();
    expect(() => readLambdaSettings({ ...base, RUN_SECONDS: '5' })).toThrow(/RUN_SECONDS must be/);
  });

  it('reads the lag limit the schedule tick judges by (600 s unless set), and names a bad one', () => {
    expect(readLambdaSettings(base).lagLimitSeconds).toBe(600);
    expect(readLambdaSettings({ ...base, LAG_ALARM_SECONDS: '1800' }).lagLimitSeconds).toBe(1800);
    for (const bad of ['59', '86401', '600.5', 'ten minutes']) {
      expect(() => readLambdaSettings({ ...base, LAG_ALARM_SECONDS: bad })).toThrow(/LAG_ALARM_SECONDS must be a whole number of seconds from 60 to 86400/);
    }
  });

  it('sends lean metrics unless DETAILED_METRICS=true, and names a value that is neither', () => {
    expect(readLambdaSettings(base).detailedMetrics).toBe(false);
    expect(readLambdaSettings({ ...base, DETAILED_METRICS: 'true' }).detailedMetrics).toBe(true);
    expect(() => readLambdaSettings({ ...base, DETAILED_METRICS: 'yes' })).toThrow(/DETAILED_METRICS must be true or false, got "yes"/);
  });

  it('reads an optional ops topic for operator notices, and names a malformed one', () => {
    const ops = 'arn:aws:sns:us-east-1:123456789012:ops';
    expect(readLambdaSettings({ ...base, OPS_TOPIC_ARN: ops }).opsTopicArn).toBe(ops);
    expect(readLambdaSettings(base).opsTopicArn).toBeUndefined();
    expect(() => readLambdaSettings({ ...base, OPS_TOPIC_ARN: 'ops' })).toThrow(/OPS_TOPIC_ARN is not an SNS topic ARN: "ops"/);
  });

  it('reads an optional schedule interval, and names a bad one', () => {
    expect(readLambdaSettings({ ...base, SCHEDULE_SECONDS: '300' }).scheduleSeconds).toBe(300);
    expect(readLambdaSettings(base).scheduleSeconds).toBeUndefined();
    expect(() => readLambdaSettings({ ...base, SCHEDULE_SECONDS: '30' })).toThrow(/SCHEDULE_SECONDS must be .* got "30"/);
  });

  it('reads the watch config store the stack names, a watch.json beside the function without one, WATCH_CONFIG over both', () => {
    expect(readLambdaSettings({ ...base, WATCH_CONFIG_BUCKET: 'config-bucket', WATCH_CONFIG_KEY: 'watch.json' }).watchConfigStore).toEqual({
      bucket: 'config-bucket',
      key: 'watch.json',
    });
    expect(readLambdaSettings({ ...base, WATCH_CONFIG_BUCKET: 'config-bucket' }).watchConfigStore).toEqual({ bucket: 'config-bucket', key: 'watch.json' });
    expect(readLambdaSettings({ ...base, LAMBDA_TASK_ROOT: '/var/task' })).toMatchObject({ watchConfigPath: '/var/task/watch.json' });
    expect(readLambdaSettings({ ...base, LAMBDA_TASK_ROOT: '/var/task' }).watchConfigStore).toBeUndefined();
    expect(readLambdaSettings({ ...base, WATCH_CONFIG: '{}' }).watchConfigText).toBe('{}');
  });
});

describe('backfill progress', () => {
  function terminal() {
    const out = new PassThrough() as PassThrough & { isTTY?: boolean };
    out.isTTY = true;
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    return { out, text: () => text };
  }

  it('shows done of total, rate and ETA on a terminal for a long backfill', () => {
    const t = terminal();
    let now = 0;
    const progress = createProgressReporter(t.out, () => now);
    now = 5_000;
    progress.update({ height: 101, done: 1, total: 100 });
    now = 65_000;
    progress.update({ height: 121, done: 21, total: 100 });
    expect(t.text()).toContain('21/100 blocks  20.0 blocks/min  ETA 4 min');
  });

  it('is sane from its first line: no rate from the setup before the first block, nor from one block alone', () => {
    const t = terminal();
    let now = 0;
    const progress = createProgressReporter(t.out, () => now);
    now = 30_000; // lease, contract statuses and the tip took 30 s: not the blocks' pace
    progress.update({ height: 1, done: 1, total: 1_000 });
    now = 30_001; // read ahead: the second block is there at once
    progress.update({ height: 2, done: 2, total: 1_000 });
    expect(t.text()).not.toMatch(/blocks\/min|ETA/);
    expect(t.text()).toContain('2/1000 blocks  measuring speed...');
    for (let done = 3; done <= 11; done += 1) {
      now += 500; // the real pace: 120 blocks a minute
      progress.update({ height: done, done, total: 1_000 });
    }
    // Within a tenth of the real pace from the first rate shown (the instant second block counts once).
    const rates = [...t.text().matchAll(/([\d.]+) blocks\/min {2}ETA (\d+) min/g)].map((m) => Number(m[1]));
    expect(rates.length).toBeGreaterThan(0);
    for (const rate of rates) expect(Math.abs(rate - 120) / 120).toBeLessThan(0.2);
  });

  it('holds steady through read-ahead batches: blocks come in bursts after each read, the rate is that of whole batches', () => {
    const t = terminal();
    let now = 0;
    const progress = createProgressReporter(t.out, () => now);
    // Each batch: 18 s reading 48 blocks, then 48 blocks done 20 ms apart. The real pace: 48 blocks per 18.96 s.
    let done = 0;
    for (let batch = 0; batch < 6; batch += 1) {
      now += 18_000;
      for (let i = 0; i < 48; i += 1) {
        done += 1;
        progress.update({ height: done, done, total: 2_000 });
        now += 20;
      }
    }
    const pace = 48 / (18.96 / 60);
    const rates = [...t.text().matchAll(/([\d.]+) blocks\/min/g)].map((m) => Number(m[1]));
    expect(rates.length).toBeGreaterThan(0);
    for (const rate of rates) expect(Math.abs(rate - pace) / pace).toBeLessThan(0.1);
  });

  it('gives a long ETA in hours and minutes', () => {
    expect(formatEta(45)).toBe('45 min');
    expect(formatEta(0.2)).toBe('1 min');
    expect(formatEta(200)).toBe('3 h 20 min');
  });

  it('is erased before other output, leaving no half line behind', () => {
    const t = terminal();
    let now = 0;
    const progress = createProgressReporter(t.out, () => now);
    progress.update({ height: 101, done: 1, total: 100 });
    now = 60_000;
    progress.update({ height: 121, done: 21, total: 100 });
    progress.clear();
    expect(t.text()).toMatch(/ETA 4 min   \r\x1b\[K$/);
    progress.clear(); // nothing shown: nothing to erase
    progress.end();
    expect(t.text()).toMatch(/ETA 4 min   \r\x1b\[K$/);
  });

  it('stays quiet for a short backfill or when stderr is not a terminal', () => {
    const t = terminal();
    createProgressReporter(t.out).update({ height: 1, done: 1, total: 50 });
    const pipe = new PassThrough();
    let piped = '';
    pipe.on('data', (d: Buffer) => (piped += d.toString()));
    createProgressReporter(pipe).update({ height: 1, done: 1, total: 500 });
    expect(t.text() + piped).toBe('');
  });
});
