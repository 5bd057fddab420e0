import { validateStacksAddress } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { contractIdProblem, recipientProblem, standardAddressProblem } from '../../lambda/core/watch-config/stacks-principals';
import { MAINNET, MAINNET_CONTRACTS, TESTNET, TWO_BYTE_PAYLOAD, VERSION_ZERO } from './principals';

describe('the library check this validation builds on', () => {
  it('validateStacksAddress accepts every principal the tests use', () => {
    const all = [...Object.values(MAINNET), ...Object.values(TESTNET), ...MAINNET_CONTRACTS.map((id) => id.split('.')[0]!)];
    expect(all.filter((a) => !validateStacksAddress(a))).toEqual([]);
  });

  it('validateStacksAddress accepts lower case after the leading S, which the API never reports', () => {
    expect(validateStacksAddress('Sp2c2yfp12ajzb4mabjbaj55xecvs7e4pmmz89yzr')).toBe(true);
  });

  it('validateStacksAddress rejects an all-lower-case address and a contract principal', () => {
    expect(validateStacksAddress(MAINNET.arkadiko.toLowerCase())).toBe(false);
    expect(validateStacksAddress(`${MAINNET.arkadiko}.arkadiko-token`)).toBe(false);
  });
});

describe('standardAddressProblem', () => {
  it('accepts single-sig and multi-sig mainnet addresses in a mainnet config', () => {
    for (const address of Object.values(MAINNET)) expect(standardAddressProblem(address, 'mainnet')).toBeNull();
  });

  it('accepts single-sig and multi-sig testnet addresses in a testnet config', () => {
    for (const address of Object.values(TESTNET)) expect(standardAddressProblem(address, 'testnet')).toBeNull();
  });

  it('says a testnet address does not belong in a mainnet config, and how to fix it', () => {
    const problem = standardAddressProblem(TESTNET.docsSender, 'mainnet');
    expect(problem).toContain('testnet address (ST...) in a mainnet config');
    expect(problem).toContain('set "network" to "testnet"');
  });

  it('says a multi-sig mainnet address does not belong in a testnet config', () => {
    expect(standardAddressProblem(MAINNET.sbtcMultisig, 'testnet')).toContain('mainnet address (SM...) in a testnet config');
  });

  it('accepts either network when the config names none', () => {
    expect(standardAddressProblem(TESTNET.boot, null)).toBeNull();
    expect(standardAddressProblem(MAINNET.boot, null)).toBeNull();
  });

  it('rejects an address whose checksum does not match', () => {
    const lastCharChanged = `${MAINNET.arkadiko.slice(0, -1)}Q`;
    expect(standardAddressProblem(lastCharChanged, 'mainnet')).toContain('not a valid Stacks address');
  });

  it('rejects lower case and names the form to write instead', () => {
    expect(standardAddressProblem(MAINNET.arkadiko.toLowerCase(), 'mainnet')).toBe(
      `is not written the way the Stacks API reports it; write it as "${MAINNET.arkadiko}"`,
    );
    expect(standardAddressProblem('Sp2c2yfp12ajzb4mabjbaj55xecvs7e4pmmz89yzr', 'mainnet')).toContain(MAINNET.arkadiko);
  });

  it('rejects the c32 look-alike letters L and O and names the canonical form', () => {
    const withLookAlikes = 'SPL02V8P0F7JX67ARQ77WEA3D3CFB5XW39REDTOAM';
    expect(validateStacksAddress(withLookAlikes)).toBe(true);
    expect(standardAddressProblem(withLookAlikes, 'mainnet')).toContain(`write it as "${MAINNET.alexV2}"`);
  });

  it('rejects a valid c32check string whose version is no Stacks network', () => {
    expect(standardAddressProblem(VERSION_ZERO, null)).toContain('address version 0');
  });

  it('rejects a c32check string too short to hold an address', () => {
    expect(validateStacksAddress(TWO_BYTE_PAYLOAD)).toBe(true);
    expect(standardAddressProblem(TWO_BYTE_PAYLOAD, 'mainnet')).toContain('not a valid Stacks address');
  });

  it('rejects spaces around an address', () => {
    expect(standardAddressProblem(` ${MAINNET.arkadiko}`, 'mainnet')).toContain('spaces');
  });

  it('rejects a contract id where an address is expected', () => {
    expect(standardAddressProblem(MAINNET_CONTRACTS[0], 'mainnet')).toContain('is a contract id');
  });

  it('rejects text that is no address at all', () => {
    for (const text of ['', 'hello', '0x1234', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq']) {
      expect(standardAddressProblem(text, 'mainnet')).toContain('not a valid Stacks address');
    }
  });
});

describe('contractIdProblem', () => {
  it('accepts real mainnet contract ids, boot contracts included', () => {
    for (const id of MAINNET_CONTRACTS) expect(contractIdProblem(id, 'mainnet')).toBeNull();
  });

  it('accepts the testnet boot contract in a testnet config', () => {
    expect(contractIdProblem(`${TESTNET.boot}.pox-4`, 'testnet')).toBeNull();
  });

  it('rejects an id without a contract name', () => {
    expect(contractIdProblem(MAINNET.boot, 'mainnet')).toContain('".contract-name" part is missing');
  });

  it('rejects a contract name that starts with a digit', () => {
    expect(contractIdProblem(`${MAINNET.boot}.4pox`, 'mainnet')).toContain('contract name "4pox" that is not valid');
  });

  it('rejects a contract name with characters Clarity does not allow', () => {
    for (const name of ['pox.4', 'pox 4', 'pox$', '']) {
      expect(contractIdProblem(`${MAINNET.boot}.${name}`, 'mainnet')).toContain('is not valid');
    }
  });

  it('accepts a 40-character name and rejects a 41-character one', () => {
    const forty = `a${'b'.repeat(39)}`;
    expect(contractIdProblem(`${MAINNET.boot}.${forty}`, 'mainnet')).toBeNull();
    expect(contractIdProblem(`${MAINNET.boot}.${forty}c`, 'mainnet')).toContain('at most 40 characters');
  });

  it('rejects a contract id whose address is on the other network', () => {
    expect(contractIdProblem(`${TESTNET.boot}.pox-4`, 'mainnet')).toContain('testnet address (ST...) in a mainnet config');
  });

  it('rejects a contract id whose address part is invalid, naming that part', () => {
    expect(contractIdProblem('SP000000000000000000002Q6VF79.pox-4', 'mainnet')).toContain('address part "SP000000000000000000002Q6VF79"');
  });
});

describe('recipientProblem', () => {
  it('accepts a standard address', () => {
    expect(recipientProblem(MAINNET.alex, 'mainnet')).toBeNull();
  });

  it('accepts a contract principal, since STX can be sent to a contract', () => {
    expect(recipientProblem('SP102V8P0F7JX67ARQ77WEA3D3CFB5XW39REDT0AM.amm-vault-v2-01', 'mainnet')).toBeNull();
  });

  it('rejects a contract principal with an invalid name', () => {
    expect(recipientProblem(`${MAINNET.alexV2}.-vault`, 'mainnet')).toContain('is not valid');
  });
});
