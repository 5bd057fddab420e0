// The handler's test environment undoes exactly what it did: a variable it set is put back as it was (or
// removed), one it did not touch is left alone, and WATCH_CONFIG is unset only for a store-read config.
import { afterEach, describe, expect, it } from 'vitest';
import { handlerEnvironment } from './handler-environment';

const dynamo = { tableName: 'table-under-test', endpoint: 'http://127.0.0.1:1' };
const touched = ['TABLE_NAME', 'WATCH_CONFIG', 'AWS_REGION', 'LOOP_QUEUE_URL', 'UNRELATED_VARIABLE'];
const saved = Object.fromEntries(touched.map((name) => [name, process.env[name]]));

describe('handlerEnvironment', () => {
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('sets the handler variables and puts each back as it was', () => {
    delete process.env.TABLE_NAME;
    process.env.AWS_REGION = 'eu-west-3';
    process.env.UNRELATED_VARIABLE = 'kept';
    const env = handlerEnvironment({ dynamo, apiUrl: 'http://127.0.0.1:2', watchConfig: { network: 'mainnet' }, extra: { LOOP_QUEUE_URL: 'q' } });
    expect(process.env).toMatchObject({ TABLE_NAME: 'table-under-test', WATCH_CONFIG: '{"network":"mainnet"}', AWS_REGION: 'us-east-1', LOOP_QUEUE_URL: 'q' });
    expect(env.variables.AWS_ENDPOINT_URL_DYNAMODB).toBe(dynamo.endpoint);

    process.env.UNRELATED_VARIABLE = 'changed by the test';
    env.restore();
    expect(process.env.TABLE_NAME).toBeUndefined();
    expect(process.env.LOOP_QUEUE_URL).toBeUndefined();
    expect(process.env.AWS_REGION).toBe('eu-west-3');
    expect(process.env.UNRELATED_VARIABLE).toBe('changed by the test');
  });

  it('unsets WATCH_CONFIG when none is given (the config comes from the store), and puts it back after', () => {
    process.env.WATCH_CONFIG = '{"from":"outside"}';
    const env = handlerEnvironment({ dynamo, apiUrl: 'http://127.0.0.1:2' });
    expect(process.env.WATCH_CONFIG).toBeUndefined();
    env.restore();
    expect(process.env.WATCH_CONFIG).toBe('{"from":"outside"}');
  });
});
