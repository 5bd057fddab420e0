// Cooldown and mute settings are typed data the compiler returns beside the compiled lists, by rule name;
// the compiled rules' metadata is what alerts carry and nothing besides.
import { describe, expect, it } from 'vitest';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import { config, ROUTER } from '../harness';

describe('cooldown and mute settings', () => {
  it('come out of compiling as typed data by rule name, rules sharing a name sharing the longest cooldown and the latest mute', () => {
    const rules = compileWatchRules(
      config({
        addressesRule: { name: 'treasury', cooldownMinutes: 30 },
        contractsRule: { mutedUntil: '2030-01-01T00:00:00Z' },
        calls: [
          { contractId: ROUTER, name: 'treasury', cooldownMinutes: 90, mutedUntil: '2029-01-01T00:00:00Z' },
          { contractId: ROUTER, functions: ['swap'], name: 'plain' },
        ],
      } as never),
    );
    expect(Object.fromEntries(rules.cooldownsAndMutes)).toEqual({
      treasury: { cooldownMinutes: 90, mutedUntil: Date.parse('2029-01-01T00:00:00Z') / 1000 },
      contracts: { mutedUntil: Date.parse('2030-01-01T00:00:00Z') / 1000 },
    });
  });

  it("leave the compiled rules' metadata with only what an alert carries", () => {
    const rules = compileWatchRules(config({ addressesRule: { name: 'treasury', cooldownMinutes: 30 } } as never));
    expect(Reflect.ownKeys(rules.addresses.meta)).toEqual(['rule', 'severity']);
  });
});
