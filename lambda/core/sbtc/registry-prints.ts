// The sbtc-registry's prints (contracts/contracts/sbtc-registry.clar) read from their Clarity values into the
// tracker's observations. A print that does not have its topic's shape is a problem naming the field, never
// an observation: nothing is alerted from a malformed print.
import type { ClarityTree } from '../clarity/decode';
import type { RegistryPrint } from './observations';

/** The registry contract on mainnet; the prints are read from its contract logs. */
export const SBTC_REGISTRY_MAINNET = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-registry';

export const REGISTRY_TOPICS = ['completed-deposit', 'withdrawal-create', 'withdrawal-accept', 'withdrawal-reject', 'key-rotation'] as const;

type Fields = Map<string, ClarityTree>;

class PrintProblem extends Error {}

function field(fields: Fields, name: string): ClarityTree {
  const value = fields.get(name);
  if (!value) throw new PrintProblem(`${name}: missing`);
  return value;
}

function uint(fields: Fields, name: string): bigint {
  const value = field(fields, name);
  if (value.type !== 'uint') throw new PrintProblem(`${name}: expected a uint, got ${value.type}`);
  return value.value;
}

function smallUint(fields: Fields, name: string): number {
  const value = uint(fields, name);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new PrintProblem(`${name}: ${value} is past any height or id`);
  return Number(value);
}

function buffer(fields: Fields, name: string, bytes?: number): string {
  const value = field(fields, name);
  if (value.type !== 'buffer') throw new PrintProblem(`${name}: expected a buffer, got ${value.type}`);
  const hex = value.hex.replace(/^0x/, '').toLowerCase();
  if (bytes !== undefined && hex.length !== bytes * 2) throw new PrintProblem(`${name}: expected ${bytes} bytes, got ${hex.length / 2}`);
  return hex;
}

function principal(fields: Fields, name: string): string {
  const value = field(fields, name);
  if (value.type !== 'principal') throw new PrintProblem(`${name}: expected a principal, got ${value.type}`);
  return value.value;
}

function read(topic: string, f: Fields): RegistryPrint | null {
  switch (topic) {
    case 'completed-deposit':
      return {
        topic,
        bitcoinTxid: buffer(f, 'bitcoin-txid', 32),
        outputIndex: smallUint(f, 'output-index'),
        amountSats: uint(f, 'amount'),
        sweepTxid: buffer(f, 'sweep-txid', 32),
        burnHeight: smallUint(f, 'burn-height'),
      };
    case 'withdrawal-create': {
      const recipient = field(f, 'recipient');
      if (recipient.type !== 'tuple') throw new PrintProblem(`recipient: expected a tuple, got ${recipient.type}`);
      return {
        topic,
        requestId: smallUint(f, 'request-id'),
        amountSats: uint(f, 'amount'),
        sender: principal(f, 'sender'),
        recipient: `${buffer(recipient.fields, 'version', 1)}${buffer(recipient.fields, 'hashbytes')}`,
        blockHeight: smallUint(f, 'block-height'),
        maxFeeSats: uint(f, 'max-fee'),
      };
    }
    case 'withdrawal-accept':
      return {
        topic,
        requestId: smallUint(f, 'request-id'),
        bitcoinTxid: buffer(f, 'bitcoin-txid', 32),
        outputIndex: smallUint(f, 'output-index'),
        feeSats: uint(f, 'fee'),
        burnHeight: smallUint(f, 'burn-height'),
        sweepTxid: buffer(f, 'sweep-txid', 32),
      };
    case 'withdrawal-reject':
      return { topic, requestId: smallUint(f, 'request-id') };
    case 'key-rotation':
      return { topic, newAddress: principal(f, 'new-address'), newAggregatePubkey: buffer(f, 'new-aggregate-pubkey', 33) };
    default:
      return null;
  }
}

/**
 * A registry print as an observation: `null` for a topic the tracker does not read (`update-protocol-contract`),
 * a problem naming the field for a print of a known topic in another shape.
 */
export function readRegistryPrint(value: ClarityTree): { ok: true; print: RegistryPrint | null } | { ok: false; problem: string } {
  if (value.type !== 'tuple') return { ok: true, print: null };
  const topic = value.fields.get('topic');
  if (topic?.type !== 'string') return { ok: true, print: null };
  try {
    return { ok: true, print: read(topic.value, value.fields) };
  } catch (error) {
    if (error instanceof PrintProblem) return { ok: false, problem: `sbtc-registry print "${topic.value}": ${error.message}` };
    throw error;
  }
}
