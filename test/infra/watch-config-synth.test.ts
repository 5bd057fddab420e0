import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AddressVersion, addressFromVersionHash, addressToString } from '@stacks/transactions';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatConfigProblems, parseWatchConfigText, WatchConfigError } from '../../lambda/config/watch-config';
import { fixture, onlyResource, synthStack } from './support/synth';

/** Lambda's cap on all environment variables of a function together. */
const LAMBDA_ENVIRONMENT_LIMIT_BYTES = 4096;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stacks-watch-infra-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A distinct, valid mainnet address for each index. */
function address(index: number): string {
  return addressToString(addressFromVersionHash(AddressVersion.MainnetSingleSig, index.toString(16).padStart(40, '0')));
}

describe('the watch config at synth', () => {
  it("fails the synth on a bad config with exactly the validator's message", () => {
    const path = fixture('watch-invalid.json');
    const validation = parseWatchConfigText(readFileSync(path, 'utf8'), path);
    if (validation.ok) throw new Error('the fixture should be invalid');
    expect(() => synthStack({ watchConfig: path })).toThrow(new WatchConfigError(validation.problems, path));
    expect(formatConfigProblems(validation.problems, path)).toMatch(/\$\.confirmations: must be a whole number from 0 to 100/);
  });

  it('fails the synth when the config file is missing, saying how to provide one', () => {
    const path = join(dir, 'absent.json');
    expect(() => synthStack({ watchConfig: path })).toThrow(`$: ${path} does not exist; copy watch.example.json to watch.json, or pass -c watchConfig=PATH`);
  });

  it('fails the synth on a file that is not JSON', () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{\n  "network": "mainnet",\n  "addresses": [\n}\n');
    expect(() => synthStack({ watchConfig: path })).toThrow(`${path} is not valid JSON at line`);
  });

  it('fails the synth on a config past the ceilings of the memory it deploys, as the function would refuse it', () => {
    const path = join(dir, 'long.json');
    // 9 MiB: within a 256 MB function's 16 MiB, past a 128 MB function's 8 MiB.
    writeFileSync(path, JSON.stringify({ network: 'mainnet', addresses: [address(1)], $comment: 'x'.repeat(9 * 2 ** 20) }));
    expect(() => synthStack({ watchConfig: path, memorySize: 128 })).toThrow(/a function of 128 MB reads at most 8,388,608: deploy with memorySize 256/);
  });

  it('synthesizes, offline, a token amount whose decimals the function reads from the token metadata at its first run, warning of it', () => {
    const path = join(dir, 'token-unit.json');
    const alex = `${address(7)}.token-alex::alex`;
    writeFileSync(path, JSON.stringify({ network: 'mainnet', balances: [{ address: address(8), asset: alex, below: '5 ALEX' }] }));
    const { stack } = synthStack({ watchConfig: path });
    Annotations.fromStack(stack).hasWarning(
      '/StacksWatch',
      Match.stringLikeRegexp(`${alex}'s decimals are read from its token metadata at the function's first run`),
    );
  });

  it("still fails the synth on a token amount whose unit is not the token's own, naming it", () => {
    const path = join(dir, 'token-wrong-unit.json');
    writeFileSync(path, JSON.stringify({ network: 'mainnet', balances: [{ address: address(8), asset: 'stx', below: '5 ALEX' }] }));
    expect(() => synthStack({ watchConfig: path })).toThrow(/\$\.balances\[0\]\.below/);
  });

  describe('with 1,000 addresses and 200 contracts', () => {
    let environment: Record<string, unknown>;
    let path: string;

    beforeAll(() => {
      path = join(dir, 'large.json');
      const addresses = Array.from({ length: 1000 }, (_, i) => address(i + 1));
      const contracts = Array.from({ length: 200 }, (_, i) => `${address(5000 + i)}.contract-${i}`);
      writeFileSync(path, JSON.stringify({ network: 'mainnet', addresses, contracts }, null, 2));
      const { template } = synthStack({ watchConfig: path });
      environment = onlyResource(template, 'AWS::Lambda::Function').resource.Properties.Environment.Variables;
    });

    it('synthesizes, with the watch list kept out of the function environment', () => {
      const text = JSON.stringify(environment);
      expect(text).not.toContain(address(1));
      expect(text).not.toContain('contract-0');
      expect(Object.keys(environment)).not.toContain('WATCH_CONFIG');
    });

    it('keeps the environment far under the Lambda limit, whatever the list size', () => {
      // References resolve to ARNs and names of at most ~150 characters each.
      const bytes = Object.entries(environment).reduce((sum, [name, value]) => sum + name.length + (typeof value === 'string' ? value.length : 150), 0);
      expect(bytes).toBeLessThan(LAMBDA_ENVIRONMENT_LIMIT_BYTES / 4);
    });

    it('is a config the validator accepts in full', () => {
      const validation = parseWatchConfigText(readFileSync(path, 'utf8'), path);
      expect(validation.ok && [validation.config.addresses.length, validation.config.contracts.length]).toEqual([1000, 200]);
    });
  });
});
