// The CLI suites' harness sets up what it says and takes it down after its block: the config written where the
// arguments point, the CLI pointed at the fake API, and the directory and server gone once the block is over.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { cliSuite } from './cli-suite';

const config = { network: 'mainnet', addresses: ['SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7'], startHeight: 1 };
let left: { dir: string; url: string } | undefined;

describe('cliSuite', () => {
  const suite = cliSuite({ name: 'harness', config, setup: (s) => s.chain.mine([]) });

  it('writes the config where the arguments point, ran setup, and runs the CLI against the fake API', async () => {
    left = { dir: suite.dir, url: suite.server.url };
    expect(suite.args()).toEqual(['--once', '--json', '--config', suite.configPath, '--state', suite.path('state.json')]);
    expect(suite.args('other.json').at(-1)).toBe(suite.path('other.json'));
    expect(JSON.parse(await readFile(suite.configPath, 'utf8'))).toEqual(config);
    expect(suite.chain.height).toBe(1);
    const run = await suite.run(['--check', '--config', suite.configPath], { env: { STACKS_API_RPM: '7' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`API: ${suite.server.url} (from STACKS_API_URL), without an API key, at most 7 requests a minute`);
  });

  it('gives each `files` call a directory of its own', async () => {
    const [a, b] = [await suite.files('x', config), await suite.files('x', '{"raw":true}')];
    expect(a.configPath).not.toBe(b.configPath);
    expect(await readFile(b.configPath, 'utf8')).toBe('{"raw":true}');
  });
});

describe('after a cliSuite block', () => {
  it('the directory is removed and the fake API closed', async () => {
    expect(left).toBeDefined();
    expect(existsSync(left!.dir)).toBe(false);
    await expect(fetch(`${left!.url}/v2/info`)).rejects.toThrow();
  });
});
