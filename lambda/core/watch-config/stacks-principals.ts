// What makes a Stacks address or contract id acceptable in a watch config. The watcher matches them
// against what the Hiro API reports by plain string equality, so anything that would never compare equal
// (wrong network, lower case, c32 look-alike letters) is an error here rather than a silent non-match.
import type { Network } from '../domain';
import { c32address, c32addressDecode, versions } from 'c32check';
import { canonicalAddressVersion } from './canonical-address';

/** The Clarity rule for contract names. */
const CONTRACT_NAME = /^[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39}$/;

const NETWORK_OF_VERSION: ReadonlyMap<number, { network: Network; prefix: string }> = new Map([
  [versions.mainnet.p2pkh, { network: 'mainnet', prefix: 'SP' }],
  [versions.mainnet.p2sh, { network: 'mainnet', prefix: 'SM' }],
  [versions.testnet.p2pkh, { network: 'testnet', prefix: 'ST' }],
  [versions.testnet.p2sh, { network: 'testnet', prefix: 'SN' }],
]);

const PREFIXES: Record<Network, string> = { mainnet: 'SP... or SM...', testnet: 'ST... or SN...' };

const NOT_AN_ADDRESS = 'is not a valid Stacks address (bad characters or checksum); copy it again from the explorer or wallet';

/**
 * The address as the API writes it, or null when `text` is no address at all. c32check decoding checks
 * the alphabet and checksum but also accepts lower case and the look-alikes O, I and L (it normalises them
 * first), so the canonical form is rebuilt from the decoded bytes.
 */
function canonicalAddress(text: string): { canonical: string; version: number } | null {
  let version: number;
  let hash160: string;
  try {
    [version, hash160] = c32addressDecode(text.toUpperCase());
  } catch {
    return null; // bad alphabet, checksum or length
  }
  // A c32check string can carry any number of bytes; an address carries a 20-byte hash.
  if (hash160.length !== 40) return null;
  return { canonical: c32address(version, hash160), version };
}

/**
 * Why `text` is not a standard Stacks address of `network` (null network: either network), or null when
 * it is one.
 */
export function standardAddressProblem(text: string, network: Network | null): string | null {
  // The common case, a valid address written as the API writes it, is answered without c32check's re-encoding.
  const version = canonicalAddressVersion(text);
  if (version !== null) return versionProblem(version, network);
  if (text.trim() !== text) return 'has spaces around it; remove them';
  if (text.includes('.')) return 'is a contract id (ADDRESS.name), not an address; remove the ".name" part';
  const decoded = canonicalAddress(text);
  if (!decoded) return NOT_AN_ADDRESS;
  if (decoded.canonical !== text) {
    return `is not written the way the Stacks API reports it; write it as "${decoded.canonical}"`;
  }
  return versionProblem(decoded.version, network);
}

/** Why an address of `version` does not belong in a config for `network`, or null when it does. */
function versionProblem(version: number, network: Network | null): string | null {
  const kind = NETWORK_OF_VERSION.get(version);
  if (!kind) {
    return `has address version ${version}, which is neither a mainnet (SP, SM) nor a testnet (ST, SN) address`;
  }
  if (network !== null && kind.network !== network) {
    return (
      `is a ${kind.network} address (${kind.prefix}...) in a ${network} config; ` +
      `use a ${network} address (${PREFIXES[network]}) or set "network" to "${kind.network}"`
    );
  }
  return null;
}

/** Why `text` is not a contract id `ADDRESS.name` of `network`, or null when it is one. */
export function contractIdProblem(text: string, network: Network | null): string | null {
  const dot = text.indexOf('.');
  if (dot < 0) return 'must be a contract id "ADDRESS.contract-name"; the ".contract-name" part is missing';
  const address = text.slice(0, dot);
  const name = text.slice(dot + 1);
  const addressProblem = standardAddressProblem(address, network);
  if (addressProblem) return `has an address part "${address}" that ${addressProblem}`;
  if (!CONTRACT_NAME.test(name)) {
    return `has a contract name "${name}" that is not valid: it must start with a letter and use only ` + 'letters, digits, "-" and "_", at most 40 characters';
  }
  return null;
}

/**
 * A watched recipient: a standard address, or a contract principal (STX can be sent to a contract, and
 * the API then reports the recipient as `ADDRESS.name`).
 */
export function recipientProblem(text: string, network: Network | null): string | null {
  return text.includes('.') ? contractIdProblem(text, network) : standardAddressProblem(text, network);
}

/** A token's name after `::`: Clarity's name rules, as for a contract name. */
const TOKEN_NAME = /^[a-zA-Z]([a-zA-Z0-9]|[-_!?+<>=/*]){0,127}$/;

/** Why `text` is not an asset id `ADDRESS.contract::token` of `network`, or null when it is one. */
export function assetIdProblem(text: string, network: Network | null): string | null {
  const at = text.indexOf('::');
  if (at < 0) return 'must be "stx", "*" or an asset id "ADDRESS.contract::token"; the "::token" part is missing';
  const contractProblem = contractIdProblem(text.slice(0, at), network);
  if (contractProblem) return `has a contract part "${text.slice(0, at)}" that ${contractProblem}`;
  const token = text.slice(at + 2);
  if (!TOKEN_NAME.test(token)) return `has a token name "${token}" that is not valid: it must start with a letter, at most 128 characters`;
  return null;
}
