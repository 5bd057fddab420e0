// The `sbtcLifecycle` section: the switch of the sBTC deposit and withdrawal deadline alerts (docs/sbtc.md).
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { subjectsOf } from '../../lambda/core/follow/fetch-plan';
import { compileWatchRules } from '../../lambda/core/rules/rule-lists';
import { DEFAULT_DEADLINES } from '../../lambda/core/sbtc/deadlines';
import { trackerSettings } from '../../lambda/core/sbtc/lifecycle-section';
import { createSbtcTracker } from '../../lambda/core/sbtc/tracker';
import { MAINNET, TESTNET } from './principals';

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

describe('the sbtcLifecycle section: scope and the settled follow-up', () => {
  const WALLET = MAINNET.arkadiko;
  const problemsOf = (input: Record<string, unknown>) => {
    const result = parseWatchConfig(input);
    return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
  };

  it('takes the recipients and senders a wallet cares about, and settled with or without its depth', () => {
    for (const section of [
      { recipients: [WALLET] },
      { senders: [WALLET] },
      { recipients: [WALLET], senders: [WALLET], settled: {} },
      { settled: { blocks: 3, $comment: 'sooner' } },
    ]) {
      const result = parse(section);
      expect(result.ok && result.config.sbtcLifecycle).toEqual(section);
    }
  });

  it.each([
    [{ recipients: ['SPnot-an-address'] }, /^\$\.sbtcLifecycle\.recipients\[0\]: /],
    [{ senders: [TESTNET.docsSender] }, /^\$\.sbtcLifecycle\.senders\[0\]: .*testnet/],
    [{ recipients: WALLET }, /^\$\.sbtcLifecycle\.recipients: must be a list/],
    [{ senders: [WALLET, WALLET] }, /^\$\.sbtcLifecycle\.senders\[1\]: .*same address/],
    [{ settled: { blocks: 0 } }, /^\$\.sbtcLifecycle\.settled\.blocks: must be a whole number from 1 to 100/],
    [{ settled: { blocks: 101 } }, /^\$\.sbtcLifecycle\.settled\.blocks: must be a whole number from 1 to 100/],
    [{ settled: true }, /^\$\.sbtcLifecycle\.settled: must be an object: \{\} sends a settled alert/],
    [{ deployer: `${MAINNET.sbtcMultisig}.sbtc-registry` }, /^\$\.sbtcLifecycle\.deployer: is a contract id/],
  ])('refuses %j, naming the field', (section, message) => {
    const found = problemsOf({ network: 'mainnet', contractLogs: [{ contractId: REGISTRY }], sbtcLifecycle: section });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });
});

describe('the sbtcLifecycle section: deadlines', () => {
  const problemsOf = (sbtcLifecycle: unknown) => {
    const result = parse(sbtcLifecycle);
    return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
  };

  it.each([
    [{}],
    [{ depositWarning: 4 }],
    [{ depositWarning: 1, depositCritical: 2, reclaimBuffer: 6, withdrawalWarning: 10, withdrawalCritical: 20, withdrawalExpiry: 144 }],
    [{ $comment: 'our bridge is slower', withdrawalWarning: 15, withdrawalCritical: 19 }],
  ])('takes %j, any subset of the deadlines in Bitcoin blocks', (deadlines) => {
    const result = parse({ deadlines });
    expect(result.ok && result.config.sbtcLifecycle).toEqual({ deadlines });
  });

  it('hands the tracker the deadlines set, the rest left to its defaults', () => {
    const result = parse({ deadlines: { $comment: 'why', depositWarning: 4, withdrawalExpiry: 30 } });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const settings = trackerSettings(result.config.sbtcLifecycle!);
    expect(settings.deadlines).toEqual({ depositWarning: 4, withdrawalExpiry: 30 });
    expect(createSbtcTracker(settings).deadlines).toEqual({ ...DEFAULT_DEADLINES, depositWarning: 4, withdrawalExpiry: 30 });
  });

  it.each([
    [{ depositWarning: 0 }, /^\$\.sbtcLifecycle\.deadlines\.depositWarning: must be a whole number from 1 to 144$/],
    [{ reclaimBuffer: 145 }, /^\$\.sbtcLifecycle\.deadlines\.reclaimBuffer: must be a whole number from 1 to 144$/],
    [{ withdrawalExpiry: 2.5 }, /^\$\.sbtcLifecycle\.deadlines\.withdrawalExpiry: must be a whole number from 1 to 144$/],
    [{ withdrawalWarning: '10' }, /^\$\.sbtcLifecycle\.deadlines\.withdrawalWarning: must be a whole number from 1 to 144, written without quotes$/],
    [{ depositWarnings: 4 }, /^\$\.sbtcLifecycle\.deadlines.*depositWarnings/],
    [{ depositWarning: 7 }, /^\$\.sbtcLifecycle\.deadlines\.depositWarning: must be before depositCritical \(6, its default\)/],
    [{ depositWarning: 4, depositCritical: 4 }, /^\$\.sbtcLifecycle\.deadlines\.depositCritical: must be after depositWarning \(4\)$/],
    [{ withdrawalCritical: 10 }, /^\$\.sbtcLifecycle\.deadlines\.withdrawalCritical: must be after withdrawalWarning \(12, its default\)$/],
    [{ withdrawalExpiry: 18 }, /^\$\.sbtcLifecycle\.deadlines\.withdrawalExpiry: must be after withdrawalCritical \(18, its default\)$/],
  ])('refuses deadlines %j, naming the field', (deadlines, message) => {
    const found = problemsOf({ deadlines });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it.each([[true], [[]], [3]])('refuses deadlines %j, saying it must be an object', (deadlines) => {
    expect(problemsOf({ deadlines })).toEqual([expect.stringMatching(/^\$\.sbtcLifecycle\.deadlines: must be an object/)]);
  });
});

describe('the sbtcLifecycle section alone', () => {
  const problemsOf = (input: Record<string, unknown>) => {
    const result = parseWatchConfig(input);
    return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
  };

  it('is a whole config on mainnet: the scan reads the registry for it, with no rule of its own', () => {
    const result = parseWatchConfig({ network: 'mainnet', sbtcLifecycle: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const rules = compileWatchRules(result.config);
    expect([...rules.contractLogs.entries()]).toEqual([[REGISTRY, []]]);
    expect(subjectsOf(rules).contracts).toEqual([REGISTRY]);
  });

  it('adds nothing to the logs read when a rule already watches the registry', () => {
    const result = parseWatchConfig({ network: 'mainnet', contractLogs: [{ contractId: REGISTRY, where: { topic: 'withdrawal-reject' } }], sbtcLifecycle: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const rules = compileWatchRules(result.config);
    expect([...rules.contractLogs.keys()]).toEqual([REGISTRY]);
    expect(rules.contractLogs.get(REGISTRY)).toHaveLength(1);
  });

  it("reads the deployer's registry when the section names one", () => {
    const result = parseWatchConfig({ network: 'testnet', sbtcLifecycle: { deployer: TESTNET.docsSender } });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect([...compileWatchRules(result.config).contractLogs.keys()]).toEqual([`${TESTNET.docsSender}.sbtc-registry`]);
  });

  it('is refused on testnet when nothing names the registry, saying what to add', () => {
    expect(problemsOf({ network: 'testnet', sbtcLifecycle: {} })).toEqual([
      '$.sbtcLifecycle.deployer: is needed on testnet: give the address that deployed the sBTC contracts there (mainnet\'s is the default), or watch that deployment\'s sbtc-registry in "contractLogs"',
    ]);
  });

  it("is valid on testnet beside a rule on that deployment's registry, as before", () => {
    expect(problemsOf({ network: 'testnet', contractLogs: [{ contractId: `${TESTNET.docsSender}.sbtc-registry` }], sbtcLifecycle: {} })).toEqual([]);
  });

  it('still leaves a config with nothing at all refused', () => {
    expect(problemsOf({ network: 'mainnet' })[0]).toMatch(/^\$: nothing to watch/);
  });
});

describe('the sbtcLifecycle section in --check', () => {
  const check = async (input: Record<string, unknown>) => {
    const { describeWatch } = await import('../../lambda/local/describe');
    const result = parseWatchConfig(input);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    return describeWatch(result.config, { baseUrl: 'https://api.hiro.so', fromEnvironment: false, requestsPerMinute: 50, hasKey: false }, 'watch.json');
  };

  it('says whose deadlines it follows, which registry it reads for them and whether settled alerts follow', async () => {
    expect(await check({ network: 'mainnet', sbtcLifecycle: { settled: {} } })).toContain(
      `- sBTC lifecycle: the signers' deadlines for every deposit and withdrawal, read from ${REGISTRY} (its prints and the sBTC mints beside them); a completion alert, then settled 6 Bitcoin blocks after`,
    );
    expect(await check({ network: 'mainnet', sbtcLifecycle: { recipients: [MAINNET.arkadiko] } })).toContain(
      `the signers' deadlines for deposits to ${MAINNET.arkadiko} and withdrawals from nobody, read from ${REGISTRY}`,
    );
  });

  it('names the deadlines the section sets', async () => {
    expect(await check({ network: 'mainnet', sbtcLifecycle: { deadlines: { depositWarning: 4, withdrawalWarning: 14 } } })).toContain(
      "- sBTC lifecycle: the deadlines (depositWarning 4, withdrawalWarning 14, the rest the signers') for every deposit and withdrawal",
    );
  });

  it('says nothing of it without the section', async () => {
    expect(await check({ network: 'mainnet', contractLogs: [{ contractId: REGISTRY }] })).not.toContain('sBTC lifecycle');
  });
});
