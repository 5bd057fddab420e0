// The `sbtcLifecycle` section: the switch of the sBTC deposit and withdrawal deadline alerts (docs/sbtc.md).
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';

const REGISTRY = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-registry';
const parse = (sbtcLifecycle: unknown) =>
  parseWatchConfig({ network: 'mainnet', contractLogs: [{ contractId: REGISTRY }], ...(sbtcLifecycle === undefined ? {} : { sbtcLifecycle }) });

describe('the sbtcLifecycle section', () => {
  it('is off when left out, and on as {}', () => {
    const off = parse(undefined);
    const on = parse({});
    expect(off.ok && off.config.sbtcLifecycle).toBeUndefined();
    expect(on.ok && on.config.sbtcLifecycle).toEqual({});
  });

  it('takes a $comment', () => {
    const result = parse({ $comment: 'deposit and withdrawal deadlines' });
    expect(result.ok && result.config.sbtcLifecycle).toEqual({ $comment: 'deposit and withdrawal deadlines' });
  });

  it.each([[true], [[]], ['on']])('refuses %j, saying it must be an object', (value) => {
    const result = parse(value);
    expect(result.ok).toBe(false);
    const text = JSON.stringify(!result.ok && result.problems);
    expect(text).toContain('sbtcLifecycle');
    expect(text).toContain('must be an object');
  });

  it('refuses an unknown key inside it', () => {
    const result = parse({ registry: 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-registry' });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(!result.ok && result.problems)).toContain('registry');
  });
});
