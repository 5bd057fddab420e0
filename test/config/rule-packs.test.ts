// Rule packs: named, versioned sets of rules shipped with stacks-watch, enabled by one entry in "packs",
// expanded into the rules they stand for before the config is checked, shown by --check as JSON to copy out.
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { describePacks, RULE_PACKS } from '../../lambda/core/packs';
import { MAINNET, TESTNET } from './principals';

const WALLET = MAINNET.arkadiko;
const SBTC = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4';

function parsed(input: Record<string, unknown>) {
  const result = parseWatchConfig(input);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config;
}

function problems(input: Record<string, unknown>) {
  const result = parseWatchConfig(input);
  if (result.ok) throw new Error('expected problems');
  return result.problems.map((p) => `${p.path}: ${p.message}`);
}

describe('rule packs', () => {
  it('ships sbtc-bridge and pox-5-staking, each with a version', () => {
    expect(RULE_PACKS.map((p) => `${p.name}@${p.version}`)).toEqual(['sbtc-bridge@1', 'pox-5-staking@1', 'chain-health@1']);
  });

  it('sbtc-bridge alone is a whole config: the registry prints, large mints and burns by amount', () => {
    const config = parsed({ network: 'mainnet', packs: [{ name: 'sbtc-bridge' }] });
    expect(config.contractLogs.map((r) => r.name)).toEqual([
      'sbtc-bridge: large deposit minted',
      'sbtc-bridge: large withdrawal requested',
      'sbtc-bridge: withdrawal rejected',
      'sbtc-bridge: signers key rotated',
      'sbtc-bridge: protocol contract updated',
    ]);
    expect(config.contractLogs[0]).toMatchObject({ contractId: `${SBTC}.sbtc-registry`, where: { topic: 'completed-deposit', amount: { gte: '1 sBTC' } } });
    expect(config.contractLogs[2]!.severity).toBe('critical');
  });

  it('sbtc-bridge with addresses also watches every mint to and burn from them, and takes its own threshold', () => {
    const config = parsed({ network: 'mainnet', packs: [{ name: 'sbtc-bridge', addresses: [WALLET], largeAmount: '5 sBTC' }] });
    expect(config.transfers).toMatchObject([
      { asset: `${SBTC}.sbtc-token::sbtc-token`, to: [WALLET], actions: ['mint'], name: 'sbtc-bridge: sBTC minted to a watched address' },
      { asset: `${SBTC}.sbtc-token::sbtc-token`, from: [WALLET], actions: ['burn'], name: 'sbtc-bridge: sBTC burned from a watched address' },
    ]);
    expect(config.contractLogs[1]!.where).toEqual({ topic: 'withdrawal-create', amount: { gte: '5 sBTC' } });
  });

  it('keeps the rules a config lists beside those of its packs', () => {
    const config = parsed({ network: 'mainnet', contractLogs: [{ contractId: `${SBTC}.sbtc-deposit` }], packs: [{ name: 'sbtc-bridge' }] });
    expect(config.contractLogs[0]!.contractId).toBe(`${SBTC}.sbtc-deposit`);
    expect(config.contractLogs).toHaveLength(6);
  });

  it('pox-5-staking watches every pox-5 print naming each stacker or signer key', () => {
    const key = `0x02${'ab'.repeat(32)}`;
    const config = parsed({ network: 'mainnet', packs: [{ name: 'pox-5-staking', stackers: [WALLET], signerKeys: [key] }] });
    expect(config.contractLogs).toMatchObject([
      { contractId: 'SP000000000000000000002Q6VF78.pox-5', contains: WALLET, name: `pox-5-staking: ${WALLET}` },
      { contractId: 'SP000000000000000000002Q6VF78.pox-5', contains: key.slice(2), name: `pox-5-staking: signer key ${key.slice(0, 10)}…` },
    ]);
  });

  it('pox-5-staking on testnet reads the testnet boot contract', () => {
    const config = parsed({ network: 'testnet', packs: [{ name: 'pox-5-staking', stackers: [TESTNET.docsSender] }] });
    expect(config.contractLogs[0]!.contractId).toBe('ST000000000000000000002AMW42H.pox-5');
  });

  it('names an unknown pack and lists the known ones', () => {
    expect(problems({ network: 'mainnet', packs: [{ name: 'sbtc' }] })).toEqual([
      '$.packs[0].name: unknown pack "sbtc": the packs are "sbtc-bridge", "pox-5-staking", "chain-health"',
    ]);
  });

  it('refuses a pinned version the shipped pack no longer has, saying how to keep the old rules', () => {
    expect(problems({ network: 'mainnet', packs: [{ name: 'sbtc-bridge', version: 0 }] })[0]).toMatch(/^\$\.packs\[0\]\.version: .*version 1.*copy/);
  });

  it('names a bad address inside a pack at its path', () => {
    expect(problems({ network: 'mainnet', packs: [{ name: 'sbtc-bridge', addresses: ['SPnot-an-address'] }] })[0]).toMatch(/^\$\.packs\[0\]\.addresses\[0\]: /);
  });

  it('refuses pox-5-staking with nobody to watch', () => {
    expect(problems({ network: 'mainnet', packs: [{ name: 'pox-5-staking' }] })[0]).toMatch(/^\$\.packs\[0\]: .*stackers.*signerKeys/);
  });

  it('refuses sbtc-bridge on testnet without the deployer of the sBTC contracts', () => {
    expect(problems({ network: 'testnet', packs: [{ name: 'sbtc-bridge' }] })[0]).toMatch(/^\$\.packs\[0\]\.deployer: /);
  });

  it('refuses the same pack twice', () => {
    expect(problems({ network: 'mainnet', packs: [{ name: 'sbtc-bridge' }, { name: 'sbtc-bridge' }] })[0]).toMatch(/^\$\.packs\[1\]: .*twice/);
  });

  it('--check shows each pack as the rules it stands for, JSON that parses to the same rules when pasted in its place', () => {
    const input = { network: 'mainnet' as const, packs: [{ name: 'sbtc-bridge', addresses: [WALLET] }] };
    const config = parsed(input);
    const lines = describePacks(input);
    expect(lines[0]).toMatch(
      /^- pack sbtc-bridge v1: 5 contractLogs rules, 2 transfers rules, the sbtcLifecycle section; to edit them, replace the pack entry with:$/,
    );
    const copied = JSON.parse(lines.slice(1).join('\n'));
    const pasted = parsed({ network: 'mainnet', ...copied });
    expect(pasted.contractLogs).toEqual(config.contractLogs);
    expect(pasted.transfers).toEqual(config.transfers);
    expect(pasted.sbtcLifecycle).toEqual(config.sbtcLifecycle);
  });
});

describe('the sbtc-bridge pack and the sBTC lifecycle', () => {
  it('turns on the sbtcLifecycle section, as "sbtcLifecycle": {} does', () => {
    const config = parsed({ network: 'mainnet', packs: [{ name: 'sbtc-bridge' }] });
    expect(config.sbtcLifecycle).toEqual({});
  });

  it('leaves the section off in a config that only watches the registry logs by hand', () => {
    const config = parsed({ network: 'mainnet', contractLogs: [{ contractId: `${SBTC}.sbtc-registry` }] });
    expect(config.sbtcLifecycle).toBeUndefined();
  });

  it('accepts an sbtcLifecycle section written beside it', () => {
    const config = parsed({ network: 'mainnet', packs: [{ name: 'sbtc-bridge' }], sbtcLifecycle: { $comment: 'deadlines too' } });
    expect(config.sbtcLifecycle).toEqual({ $comment: 'deadlines too' });
  });

  it('accepts a section beside it that sets its own deadlines, and keeps them', () => {
    const config = parsed({ network: 'mainnet', packs: [{ name: 'sbtc-bridge' }], sbtcLifecycle: { deadlines: { depositWarning: 4 } } });
    expect(config.sbtcLifecycle).toEqual({ deadlines: { depositWarning: 4 } });
  });
});

describe('the sbtc-bridge pack for a wallet: recipients, senders and settled', () => {
  const OTHER = MAINNET.alex;

  it('scopes the lifecycle to the recipients and senders named, and watches their mints and burns too', () => {
    const config = parsed({ network: 'mainnet', packs: [{ name: 'sbtc-bridge', recipients: [WALLET], senders: [OTHER], settled: {} }] });
    expect(config.sbtcLifecycle).toEqual({ recipients: [WALLET], senders: [OTHER], settled: {} });
    expect(config.transfers).toMatchObject([
      { asset: `${SBTC}.sbtc-token::sbtc-token`, to: [WALLET], actions: ['mint'] },
      { asset: `${SBTC}.sbtc-token::sbtc-token`, from: [OTHER], actions: ['burn'] },
    ]);
  });

  it('expands an entry with addresses alone as before: every mint and burn of them, the lifecycle for everyone', () => {
    const config = parsed({ network: 'mainnet', packs: [{ name: 'sbtc-bridge', version: 1, addresses: [WALLET] }] });
    expect(config.sbtcLifecycle).toEqual({});
    expect(config.transfers.map((t) => [t.to, t.from])).toEqual([
      [[WALLET], []],
      [[], [WALLET]],
    ]);
  });

  it('watches an address named both ways once', () => {
    const config = parsed({ network: 'mainnet', packs: [{ name: 'sbtc-bridge', addresses: [WALLET], recipients: [WALLET], senders: [WALLET] }] });
    expect(config.transfers.map((t) => [t.to, t.from])).toEqual([
      [[WALLET], []],
      [[], [WALLET]],
    ]);
  });

  it('names a bad recipient or depth at its path in the entry', () => {
    expect(problems({ network: 'mainnet', packs: [{ name: 'sbtc-bridge', recipients: ['SPnot-an-address'] }] })[0]).toMatch(
      /^\$\.packs\[0\]\.recipients\[0\]: /,
    );
    expect(problems({ network: 'mainnet', packs: [{ name: 'sbtc-bridge', settled: { blocks: 0 } }] })[0]).toMatch(
      /^\$\.packs\[0\]\.settled\.blocks: must be a whole number from 1 to 100/,
    );
  });

  it('accepts a section beside it that says the same, the default depth spelled out, and refuses one that does not', () => {
    const same = parsed({
      network: 'mainnet',
      packs: [{ name: 'sbtc-bridge', senders: [WALLET], settled: {} }],
      sbtcLifecycle: { senders: [WALLET], settled: { blocks: 6 } },
    });
    expect(same.sbtcLifecycle).toEqual({ senders: [WALLET], settled: { blocks: 6 } });
    const found = problems({ network: 'mainnet', packs: [{ name: 'sbtc-bridge', senders: [WALLET] }], sbtcLifecycle: {} });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^\$\.packs\[0\]: the pack "sbtc-bridge" stands for "sbtcLifecycle"/);
  });

  it('--check shows the section with its scope, JSON that parses to the same when pasted in its place', () => {
    const input = { network: 'mainnet' as const, packs: [{ name: 'sbtc-bridge', recipients: [WALLET], settled: { blocks: 3 } }] };
    const config = parsed(input);
    const copied = JSON.parse(describePacks(input).slice(1).join('\n'));
    expect(copied.sbtcLifecycle).toEqual({ recipients: [WALLET], settled: { blocks: 3 } });
    const pasted = parsed({ network: 'mainnet', ...copied });
    expect(pasted.sbtcLifecycle).toEqual(config.sbtcLifecycle);
    expect(pasted.transfers).toEqual(config.transfers);
  });
});

describe('the chain-health pack', () => {
  it('alone turns on the chainHealth section with its defaults, as "chainHealth": {} does', () => {
    const config = parsed({ network: 'mainnet', packs: [{ name: 'chain-health' }] });
    expect(config.chainHealth).toEqual(parsed({ network: 'mainnet', chainHealth: {} }).chainHealth);
    expect(config.chainHealth).toEqual({});
    expect(config.contractLogs).toEqual([]);
  });

  it('passes stallMinutes and tenureBlocks through to the section', () => {
    const config = parsed({ network: 'mainnet', addresses: [WALLET], packs: [{ name: 'chain-health', stallMinutes: 15, tenureBlocks: 3 }] });
    expect(config.chainHealth).toEqual({ stallMinutes: 15, tenureBlocks: 3 });
    expect(config.addresses).toEqual([WALLET]);
  });

  it("refuses a setting out of the section's bounds at its path in the entry", () => {
    expect(problems({ network: 'mainnet', packs: [{ name: 'chain-health', stallMinutes: 1 }] })[0]).toMatch(/^\$\.packs\[0\]\.stallMinutes: .*2 to 1440/);
  });

  it('accepts a chainHealth section beside it that says the same, defaults included', () => {
    const config = parsed({ network: 'mainnet', chainHealth: { stallMinutes: 10 }, packs: [{ name: 'chain-health', tenureBlocks: 2 }] });
    expect(config.chainHealth).toEqual({ stallMinutes: 10 });
  });

  it('refuses a chainHealth section beside it that disagrees, naming both', () => {
    const found = problems({ network: 'mainnet', chainHealth: { stallMinutes: 20 }, packs: [{ name: 'chain-health', stallMinutes: 15 }] });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^\$\.packs\[0\]: .*"stallMinutes": ?15.*"chainHealth".*"stallMinutes": ?20/);
  });

  it('--check shows it as the chainHealth section, JSON that parses to the same section when pasted in its place', () => {
    const input = { network: 'mainnet' as const, packs: [{ name: 'chain-health', stallMinutes: 30 }] };
    const config = parsed(input);
    const lines = describePacks(input);
    expect(lines[0]).toMatch(/^- pack chain-health v1: the chainHealth section; to edit it, replace the pack entry with:$/);
    const copied = JSON.parse(lines.slice(1).join('\n'));
    expect(copied).toEqual({ chainHealth: { stallMinutes: 30 } });
    expect(parsed({ network: 'mainnet', ...copied }).chainHealth).toEqual(config.chainHealth);
  });
});

describe('rule packs in --check', () => {
  it('lists each pack with its rules to copy out, beside the rules in words', async () => {
    const { describeWatch } = await import('../../lambda/local/describe');
    const config = parsed({ network: 'mainnet', packs: [{ name: 'pox-5-staking', stackers: [WALLET] }] });
    const text = describeWatch(config, { baseUrl: 'https://api.hiro.so', fromEnvironment: false, requestsPerMinute: 50, hasKey: false }, 'watch.json');
    expect(text).toContain('- pack pox-5-staking v1: 1 contractLogs rules; to edit them, replace the pack entry with:');
    expect(text).toContain(`"contains": "${WALLET}"`);
  });
});
