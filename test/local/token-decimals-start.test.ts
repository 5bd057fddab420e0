// Start-up's token metadata read goes through the run's own Hiro client: the client the cycles then use has
// counted it, inside the one request budget, rather than a second client with a budget of its own.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import type { Telemetry } from '../../lambda/core/ports';
import { parseCliArgs } from '../../lambda/local/args';
import { buildDeps, runClient } from '../../lambda/local/local-deps';
import { tokenDecimalsStart } from '../../lambda/local/token-decimals-start';
import { readApiSettings } from '../../lambda/runtime/api-env';
import { createFakeHiro, fakeAddress, fakeContractId, ROUTES, type RunningFakeHiro } from '../support/fake-hiro';

const alex = `${fakeContractId('token-alex')}::alex`;
const telemetry: Telemetry = { log: () => {}, metric: () => {} } as unknown as Telemetry;

describe("start-up reading token decimals through the run's client", () => {
  const fake = createFakeHiro();
  let server: RunningFakeHiro;
  let dir: string;
  beforeAll(async () => {
    fake.chain.setTokenMetadata(alex, { decimals: 8, symbol: 'ALEX' });
    server = await fake.start();
    dir = await mkdtemp(join(tmpdir(), 'stacks-watch-start-decimals-'));
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('counts the metadata read in the stats of the client the cycles use: one client, one budget', async () => {
    const options = parseCliArgs(['--once', '--config', join(dir, 'watch.json'), '--state', join(dir, 'state.json')]);
    const env = { STACKS_API_URL: server.url, STACKS_API_RPM: '100000' };
    const chainFor = runClient(options, telemetry);
    const start = tokenDecimalsStart(options, telemetry, (network) => chainFor(readApiSettings(env, undefined, network)));
    const raw = await start.prepare({ network: 'mainnet', balances: [{ address: fakeAddress('pool'), asset: alex, below: '5 ALEX' }] });
    const parsed = parseWatchConfig(raw);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const deps = await buildDeps(options, parsed.config, telemetry, chainFor(readApiSettings(env, undefined, 'mainnet')));
    expect(fake.count(ROUTES.tokenMetadata)).toBe(1);
    expect(deps.chain.stats().byEndpoint).toEqual({ [ROUTES.tokenMetadata]: 1 });
  });
});
