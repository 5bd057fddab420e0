import { describe, expect, it } from 'vitest';
import { type ConfigProblem, parseWatchConfig } from '../../lambda/config/watch-config';
import { MAINNET, TESTNET } from './principals';

const POX4 = 'SP000000000000000000002Q6VF78.pox-4';
const ARKADIKO_TOKEN = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.arkadiko-token';

/** The problems of an input that must be rejected (fails the test when it is accepted). */
function problemsOf(input: unknown): ConfigProblem[] {
  const result = parseWatchConfig(input);
  if (result.ok) throw new Error(`expected problems, got a valid config: ${JSON.stringify(result.config)}`);
  return result.problems;
}

function problemAt(input: unknown, path: string): ConfigProblem {
  const problems = problemsOf(input);
  const found = problems.find((p) => p.path === path);
  if (!found) throw new Error(`no problem at ${path}; got ${JSON.stringify(problems)}`);
  return found;
}

const minimal = { network: 'mainnet', contracts: [POX4] };
const withField = (field: string, value: unknown) => ({ ...minimal, [field]: value });

describe('a valid watch config', () => {
  it('gets the documented defaults for every field left out', () => {
    expect(parseWatchConfig(minimal)).toEqual({
      ok: true,
      config: {
        network: 'mainnet',
        contracts: [POX4],
        addresses: [],
        contractLogs: [],
        transfers: [],
        calls: [],
        windows: [],
        balances: [],
        startHeight: 'latest',
        confirmations: 0,
        maxBlocksPerRun: 500,
        smsPerRun: 5,
      },
    });
  });

  it('keeps every field it was given', () => {
    const full = {
      network: 'mainnet',
      contracts: [ARKADIKO_TOKEN],
      addresses: [MAINNET.alex, MAINNET.sbtcMultisig],
      contractLogs: [{ contractId: POX4 }, { contractId: ARKADIKO_TOKEN, contains: 'mint', name: 'Token minted', severity: 'critical' }],
      contractsRule: { name: 'Deployments', severity: 'info' },
      addressesRule: { name: 'Treasury inflow' },
      transfers: [
        { asset: 'stx', to: [MAINNET.alex], from: [], minAmount: '100000000', actions: ['transfer'], name: 'Big STX in', severity: 'critical' },
        { asset: `${ARKADIKO_TOKEN}::diko`, to: [], from: [MAINNET.sbtcMultisig], actions: ['transfer', 'burn'], decimals: 6, symbol: 'DIKO' },
      ],
      calls: [{ contractId: ARKADIKO_TOKEN, functions: ['mint'], status: 'failed', name: 'Failed mint', severity: 'info' }],
      balances: [
        { address: MAINNET.alex, asset: 'stx', below: '50000000', name: 'relayer gas', severity: 'critical' },
        { address: MAINNET.sbtcMultisig, asset: `${ARKADIKO_TOKEN}::diko`, below: '100', above: '2500000000', decimals: 6, symbol: 'DIKO' },
      ],
      startHeight: 182345,
      confirmations: 3,
      maxBlocksPerRun: 50,
      smsPerRun: 2,
      windows: [],
    };
    expect(parseWatchConfig(full)).toEqual({ ok: true, config: full });
  });

  it('allows a $comment at the top and in a log rule, and leaves it out of the result', () => {
    const result = parseWatchConfig({
      $comment: ['what this file is', 'and why'],
      network: 'mainnet',
      contractLogs: [{ $comment: 'stacking operations', contractId: POX4 }],
    });
    expect(result).toMatchObject({ ok: true, config: { contractLogs: [{ contractId: POX4 }] } });
    expect(JSON.stringify(result)).not.toContain('$comment');
  });

  it('accepts a testnet config with testnet principals', () => {
    const result = parseWatchConfig({
      network: 'testnet',
      contracts: [`${TESTNET.boot}.pox-4`],
      addresses: [TESTNET.docsSender, TESTNET.multisig],
    });
    expect(result.ok).toBe(true);
  });

  it('accepts empty lists as long as one list has an entry', () => {
    expect(parseWatchConfig({ network: 'mainnet', contracts: [], addresses: [MAINNET.alex], contractLogs: [] }).ok).toBe(true);
  });
});

describe('unknown keys', () => {
  it('rejects a misspelt top-level key and suggests the right one', () => {
    const problem = problemAt({ ...minimal, adresses: [MAINNET.alex] }, '$.adresses');
    expect(problem.message).toContain('did you mean "addresses"?');
    expect(problem.value).toEqual([MAINNET.alex]);
  });

  it('rejects an unknown key inside a log rule at its own path', () => {
    const problem = problemAt({ network: 'mainnet', contractLogs: [{ contractId: POX4, filter: 'x' }] }, '$.contractLogs[0].filter');
    expect(problem.message).toContain('unknown key "filter"');
  });

  it('points a key that looks like a comment to "$comment", at the top and in a log rule', () => {
    for (const key of ['//', '_comment', 'comment', '# network', 'notes']) {
      expect(problemAt(withField(key, 'x'), `$${/^[A-Za-z_$][\w$]*$/.test(key) ? '.' + key : `["${key}"]`}`).message).toBe(
        `unknown key "${key}": JSON has no comments; to leave one, use "$comment" (a string or a list of strings), which stacks-watch ignores`,
      );
    }
    const inRule = problemAt({ network: 'mainnet', contractLogs: [{ contractId: POX4, '//': 'x' }] }, '$.contractLogs[0]["//"]');
    expect(inRule.message).toContain('use "$comment"');
  });

  it('suggests a key that differs only in case', () => {
    expect(problemAt(withField('StartHeight', 5), '$.StartHeight').message).toContain('did you mean "startHeight"?');
  });

  it('quotes a key that is not an identifier in the path', () => {
    expect(problemsOf(withField('start height', 5)).map((p) => p.path)).toContain('$["start height"]');
  });

  it('rejects a $comment that is neither text nor a list of text', () => {
    expect(problemAt(withField('$comment', 42), '$.$comment').message).toContain('comment');
  });
});

describe('network', () => {
  it('is required', () => {
    expect(problemAt({ contracts: [POX4] }, '$.network').message).toBe('is required: "mainnet" or "testnet"');
  });

  it('must be mainnet or testnet', () => {
    const problem = problemAt(withField('network', 'main'), '$.network');
    expect(problem).toEqual({ path: '$.network', value: 'main', message: 'must be "mainnet" or "testnet"' });
  });
});

describe('the watch lists', () => {
  it('must be lists', () => {
    expect(problemAt(withField('addresses', MAINNET.alex), '$.addresses').message).toContain('must be a list');
  });

  it('must not all be empty', () => {
    const problem = problemAt({ network: 'mainnet', contracts: [], addresses: [] }, '$');
    expect(problem.message).toContain('nothing to watch');
  });

  it('must not all be missing', () => {
    expect(problemAt({ network: 'mainnet' }, '$').message).toContain('nothing to watch');
  });

  it('may all be missing when chain health is watched: the watcher then follows the chain for its health only', () => {
    const result = parseWatchConfig({ network: 'mainnet', chainHealth: {} });
    expect(result.ok && result.config.chainHealth).toEqual({});
    const pack = parseWatchConfig({ network: 'mainnet', packs: [{ name: 'chain-health' }] });
    expect(pack.ok && pack.config.chainHealth).toEqual({});
  });

  it('still must not all be empty when chainHealth is not a section', () => {
    const messages = (input: Record<string, unknown>) => {
      const result = parseWatchConfig(input);
      return result.ok ? [] : result.problems.map((p) => p.message);
    };
    expect(messages({ network: 'mainnet', chainHealth: true })).toContainEqual(expect.stringContaining('nothing to watch'));
    expect(messages({ network: 'mainnet', contracts: [], packs: [] })).toContainEqual(expect.stringContaining('nothing to watch'));
  });
});

describe('addresses', () => {
  it('rejects a testnet address in a mainnet config at its index', () => {
    const problem = problemAt(withField('addresses', [MAINNET.alex, TESTNET.docsSender]), '$.addresses[1]');
    expect(problem.value).toBe(TESTNET.docsSender);
    expect(problem.message).toContain('testnet address');
  });

  it('checks addresses against the network the file names', () => {
    const config = { network: 'testnet', addresses: [MAINNET.alex] };
    expect(problemAt(config, '$.addresses[0]').message).toContain('mainnet address (SP...) in a testnet config');
  });

  it('rejects a bad checksum', () => {
    const problem = problemAt(withField('addresses', [`${MAINNET.alex.slice(0, -1)}8`]), '$.addresses[0]');
    expect(problem.message).toContain('not a valid Stacks address');
  });

  it('rejects a lower-case address', () => {
    expect(problemAt(withField('addresses', [MAINNET.alex.toLowerCase()]), '$.addresses[0]').message).toContain(MAINNET.alex);
  });

  it('rejects an entry that is not text', () => {
    expect(problemAt(withField('addresses', [42]), '$.addresses[0]').message).toBe('must be a Stacks address in quotes');
  });

  it('reports a duplicate at the second copy, pointing at the first', () => {
    const problem = problemAt(withField('addresses', [MAINNET.alex, MAINNET.arkadiko, MAINNET.alex]), '$.addresses[2]');
    expect(problem.message).toBe('repeats addresses[0] (the same address); remove one');
  });

  it('still reports a duplicate when another entry has the wrong type', () => {
    const paths = problemsOf(withField('addresses', [MAINNET.alex, 7, MAINNET.alex])).map((p) => p.path);
    expect(paths).toEqual(['$.addresses[1]', '$.addresses[2]']);
  });
});

describe('contracts', () => {
  it('rejects an address without a contract name', () => {
    expect(problemAt(withField('contracts', [MAINNET.boot]), '$.contracts[0]').message).toContain('contract-name');
  });

  it('rejects a duplicate contract at the second copy', () => {
    expect(problemAt(withField('contracts', [POX4, POX4]), '$.contracts[1]').message).toContain('repeats contracts[0]');
  });

  it('rejects a contract on the other network', () => {
    expect(problemAt(withField('contracts', [`${TESTNET.boot}.pox-4`]), '$.contracts[0]').message).toContain('testnet');
  });
});

describe('contractLogs', () => {
  const rules = (...list: unknown[]) => ({ network: 'mainnet', contractLogs: list });

  it('rejects a rule without a contractId', () => {
    expect(problemAt(rules({ contains: 'x' }), '$.contractLogs[0].contractId').message).toContain('is required');
  });

  it('rejects an invalid contractId at its path', () => {
    expect(problemAt(rules({ contractId: `${MAINNET.boot}.1bad` }), '$.contractLogs[0].contractId').message).toContain('"1bad"');
  });

  it('rejects an empty contains', () => {
    expect(problemAt(rules({ contractId: POX4, contains: '' }), '$.contractLogs[0].contains').message).toContain('must not be empty');
  });

  it('rejects a contains that is not text', () => {
    expect(problemAt(rules({ contractId: POX4, contains: 5 }), '$.contractLogs[0].contains').message).toContain('in quotes');
  });

  it('rejects a rule that is not an object', () => {
    expect(problemAt(rules(POX4), '$.contractLogs[0]').message).toContain('must be an object');
  });

  it('rejects the same contractId and contains twice', () => {
    const problem = problemAt(rules({ contractId: POX4, contains: 'stack' }, { contractId: POX4, contains: 'stack' }), '$.contractLogs[1]');
    expect(problem.message).toContain('repeats contractLogs[0]');
  });

  it('rejects the same contractId twice without contains', () => {
    expect(problemAt(rules({ contractId: POX4 }, { contractId: POX4 }), '$.contractLogs[1]').message).toContain('repeats');
  });

  it('allows one contract with different contains filters, and with none', () => {
    const result = parseWatchConfig(rules({ contractId: POX4 }, { contractId: POX4, contains: 'a' }, { contractId: POX4, contains: 'b' }));
    expect(result.ok).toBe(true);
  });
});

describe('numbers', () => {
  it.each([['latest'], [0], [182345]])('accepts startHeight %j', (value) => {
    expect(parseWatchConfig(withField('startHeight', value))).toMatchObject({ ok: true, config: { startHeight: value } });
  });

  it.each([[-1], [1.5], ['12'], ['earliest'], [null]])('rejects startHeight %j', (value) => {
    expect(problemAt(withField('startHeight', value), '$.startHeight').message).toContain('"latest" or a block height');
  });

  it.each([[0], [100]])('accepts confirmations %j', (value) => {
    expect(parseWatchConfig(withField('confirmations', value)).ok).toBe(true);
  });

  it.each([[-1], [101], [1.5], [true]])('rejects confirmations %j', (value) => {
    expect(problemAt(withField('confirmations', value), '$.confirmations').message).toBe('must be a whole number from 0 to 100');
  });

  it('tells a user who quoted a number to drop the quotes', () => {
    expect(problemAt(withField('confirmations', '12'), '$.confirmations').message).toContain('written without quotes');
  });

  it.each([[1], [10000]])('accepts maxBlocksPerRun %j', (value) => {
    expect(parseWatchConfig(withField('maxBlocksPerRun', value)).ok).toBe(true);
  });

  it.each([[0], [10001], [2.5]])('rejects maxBlocksPerRun %j', (value) => {
    expect(problemAt(withField('maxBlocksPerRun', value), '$.maxBlocksPerRun').message).toContain('from 1 to 10000');
  });
});

describe('the whole file', () => {
  it('reports every problem at once, each with its path', () => {
    const problems = problemsOf({
      network: 'mainnet',
      adresses: [],
      contracts: [POX4, POX4],
      addresses: [TESTNET.boot],
      contractLogs: [{ contractId: POX4, contains: '' }],
      startHeight: -1,
      confirmations: 1.5,
      maxBlocksPerRun: 0,
    });
    expect(problems.map((p) => p.path).sort()).toEqual(
      ['$.adresses', '$.contracts[1]', '$.addresses[0]', '$.contractLogs[0].contains', '$.startHeight', '$.confirmations', '$.maxBlocksPerRun'].sort(),
    );
  });

  it('reports nothing-to-watch beside a bad network', () => {
    const paths = problemsOf({ network: 'mainnet-beta' }).map((p) => p.path);
    expect(paths).toEqual(['$.network', '$']);
  });

  it.each([[[]], [null], ['watch.json'], [42]])('rejects %j as not an object', (input) => {
    expect(problemsOf(input)).toEqual([{ path: '$', value: input, message: expect.stringContaining('must be a JSON object') }]);
  });
});

describe('transfer rules', () => {
  const rule = (over: Record<string, unknown>) => parseWatchConfig({ network: 'mainnet', transfers: [{ asset: 'stx', to: [MAINNET.alex], ...over }] });
  const paths = (result: ReturnType<typeof parseWatchConfig>) => (result.ok ? [] : result.problems.map((p) => p.path));

  it('is a watch list on its own, with actions defaulting to all three and minAmount kept as a string', () => {
    expect(parseWatchConfig({ network: 'mainnet', transfers: [{ asset: '*', from: [MAINNET.alex], minAmount: 5 }] })).toMatchObject({
      ok: true,
      config: { transfers: [{ asset: '*', to: [], from: [MAINNET.alex], minAmount: '5', actions: ['transfer', 'mint', 'burn'] }] },
    });
    expect(rule({ minAmount: '123456789012345678901234567890' })).toMatchObject({
      ok: true,
      config: { transfers: [{ minAmount: '123456789012345678901234567890' }] },
    });
  });

  it('takes "pending" on a rule on STX or any asset only: the mempool shows native STX transfers alone', () => {
    expect(rule({ pending: true })).toMatchObject({ ok: true, config: { transfers: [{ pending: true }] } });
    expect(rule({ pending: false })).toMatchObject({ ok: true, config: { transfers: [expect.not.objectContaining({ pending: expect.anything() })] } });
    const token = rule({ asset: 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token', pending: true });
    expect(token.ok ? [] : token.problems.map((p) => p.message)).toEqual([expect.stringContaining('"pending" watches native STX transfers')]);
    expect(paths(rule({ pending: 'yes' }))).toEqual(['$.transfers[0].pending']);
  });

  it('takes "stx", "*" and asset ids ADDRESS.contract::token of the network, and nothing else', () => {
    expect(rule({ asset: 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token' }).ok).toBe(true);
    expect(paths(rule({ asset: 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token' }))).toEqual(['$.transfers[0].asset']);
    expect(paths(rule({ asset: 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM.sbtc-token::sbtc' }))).toEqual(['$.transfers[0].asset']);
    expect(paths(rule({ asset: 'STX' }))).toEqual(['$.transfers[0].asset']);
  });

  it('reports every problem of every rule at once: principals, amounts, actions, decimals, unknown keys, nobody watched', () => {
    const result = parseWatchConfig({
      network: 'mainnet',
      transfers: [
        { asset: 'stx', to: ['nope'], from: [MAINNET.alex, MAINNET.alex], minAmount: '1.5' },
        { asset: 'stx', to: [MAINNET.alex], actions: ['swap', 'mint', 'mint'], decimals: 99, symbol: 'two words', colour: 'red' },
        { asset: 'stx' },
        { asset: 'stx', to: [MAINNET.alex], minAmount: -1 },
      ],
    });
    expect(paths(result)).toEqual([
      '$.transfers[0].to[0]',
      '$.transfers[0].from[1]',
      '$.transfers[0].minAmount',
      '$.transfers[1].actions[0]',
      '$.transfers[1].actions[2]',
      '$.transfers[1].decimals',
      '$.transfers[1].symbol',
      '$.transfers[1].colour',
      '$.transfers[2]',
      '$.transfers[3].minAmount',
    ]);
    expect(result.ok ? '' : result.problems.find((p) => p.path === '$.transfers[1].colour')!.message).toContain('"minAmount"');
  });

  it('counts toward "nothing to watch"', () => {
    expect(paths(parseWatchConfig({ network: 'mainnet', transfers: [] }))).toEqual(['$']);
    expect(parseWatchConfig({ network: 'mainnet', transfers: [] })).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringContaining('"transfers"') }],
    });
  });
});

describe('rule names and severities', () => {
  const problemsOf = (input: unknown) => {
    const result = parseWatchConfig(input);
    return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
  };

  it('takes the same name and severity keys on a log rule and on a whole list', () => {
    const result = parseWatchConfig({
      ...minimal,
      contractLogs: [{ contractId: POX4, name: 'Stacking', severity: 'info' }],
      contractsRule: { $comment: 'deploys', severity: 'critical' },
    });
    expect(result).toMatchObject({
      ok: true,
      config: { contractLogs: [{ contractId: POX4, name: 'Stacking', severity: 'info' }], contractsRule: { severity: 'critical' } },
    });
  });

  it('names the bad severity, the empty or too long name, and the unknown key of a list rule', () => {
    const problems = problemsOf({
      ...minimal,
      contractLogs: [{ contractId: POX4, severity: 'urgent', name: '' }],
      addressesRule: { name: 'x'.repeat(61), level: 'info' },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\$\.contractLogs\[0\]\.severity: must be one of "critical", "warning", "info"/),
        expect.stringMatching(/^\$\.contractLogs\[0\]\.name: must not be empty/),
        expect.stringMatching(/^\$\.addressesRule\.name: must be at most 60 characters/),
        expect.stringMatching(/^\$\.addressesRule\.level: unknown key "level": .*"\$comment", "name", "severity"/),
      ]),
    );
  });

  it('keeps the default-name form for defaults: a name may not start with a list name and a colon', () => {
    expect(problemsOf({ ...minimal, contractsRule: { name: 'contracts:mine' } })).toEqual([
      expect.stringMatching(/^\$\.contractsRule\.name: must not start with a rule list's name/),
    ]);
  });

  it('takes cooldownMinutes and mutedUntil on any rule and on a whole list', () => {
    const result = parseWatchConfig({
      ...minimal,
      contractLogs: [{ contractId: POX4, cooldownMinutes: 30 }],
      contractsRule: { mutedUntil: '2026-11-26T06:00:00+01:00' },
      calls: [{ contractId: POX4, cooldownMinutes: 10_080, mutedUntil: '2026-11-26T06:00:00Z' }],
    });
    expect(result).toMatchObject({
      ok: true,
      config: {
        contractLogs: [{ contractId: POX4, cooldownMinutes: 30 }],
        contractsRule: { mutedUntil: '2026-11-26T06:00:00+01:00' },
        calls: [{ contractId: POX4, cooldownMinutes: 10_080, mutedUntil: '2026-11-26T06:00:00Z' }],
      },
    });
  });

  it('rejects a cooldown that is not 1 to 10,080 whole minutes and a mutedUntil that is not an ISO-8601 time with its zone', () => {
    const problems = problemsOf({
      ...minimal,
      contractLogs: [
        { contractId: POX4, cooldownMinutes: 0 },
        { contractId: POX4, cooldownMinutes: 10_081, name: 'b' },
        { contractId: POX4, cooldownMinutes: 1.5, name: 'c' },
        { contractId: POX4, cooldownMinutes: '30', name: 'd' },
      ],
      addressesRule: { mutedUntil: 'tonight' },
      transfers: [{ asset: 'stx', to: [MAINNET.alex], mutedUntil: '2026-11-26T06:00:00' }],
      contractsRule: { mutedUntil: '2026-02-30T06:00:00Z' },
    });
    const minutes = /must be a whole number of minutes from 1 to 10080 \(a week\)/;
    expect(problems).toHaveLength(7);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\$\.contractsRule\.mutedUntil: must be an ISO-8601 time with its zone/),
        ...[0, 1, 2, 3].map((i) => expect.stringMatching(new RegExp(`^\\$\\.contractLogs\\[${i}\\]\\.cooldownMinutes: ${minutes.source}`))),
        expect.stringMatching(/^\$\.addressesRule\.mutedUntil: must be an ISO-8601 time with its zone/),
        expect.stringMatching(/^\$\.transfers\[0\]\.mutedUntil: must be an ISO-8601 time with its zone/),
      ]),
    );
  });

  it('takes no cooldown on contractsRule, and says to mute it instead', () => {
    expect(problemsOf({ ...minimal, contractsRule: { cooldownMinutes: 30 } })).toEqual([
      expect.stringMatching(/^\$\.contractsRule\.cooldownMinutes: is not taken here: .*"mutedUntil" quiets them/),
    ]);
  });

  it('rejects an smsPerRun outside 0 to 100', () => {
    expect(problemsOf(withField('smsPerRun', 101))).toEqual([expect.stringMatching(/^\$\.smsPerRun: must be a whole number from 0 to 100/)]);
  });
});
