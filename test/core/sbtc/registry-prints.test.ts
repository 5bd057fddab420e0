// The sbtc-registry's prints, serialized as the contract prints them, read into the tracker's observations.
import { boolCV, bufferCV, principalCV, serializeCV, stringAsciiCV, tupleCV, uintCV } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { decodeClarity } from '../../../lambda/core/clarity/decode';
import { readRegistryPrint } from '../../../lambda/core/sbtc/registry-prints';

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);
const read = (cv: Parameters<typeof serializeCV>[0]) => readRegistryPrint(decodeClarity(serializeCV(cv)));

describe('sbtc-registry prints', () => {
  it('reads completed-deposit with its txids in the order they were printed', () => {
    const print = tupleCV({
      topic: stringAsciiCV('completed-deposit'),
      'bitcoin-txid': bufferCV(bytes(32, 0xab)),
      'output-index': uintCV(1),
      amount: uintCV(50_000_000),
      'burn-hash': bufferCV(bytes(32, 1)),
      'burn-height': uintCV(871_000),
      'sweep-txid': bufferCV(bytes(32, 0xcd)),
    });
    expect(read(print)).toEqual({
      ok: true,
      print: {
        topic: 'completed-deposit',
        bitcoinTxid: 'ab'.repeat(32),
        outputIndex: 1,
        amountSats: 50_000_000n,
        sweepTxid: 'cd'.repeat(32),
        burnHeight: 871_000,
      },
    });
  });

  it('reads withdrawal-create with the Bitcoin height of the request and the recipient as version and hash bytes', () => {
    const print = tupleCV({
      topic: stringAsciiCV('withdrawal-create'),
      amount: uintCV(25_000_000),
      'request-id': uintCV(412),
      sender: principalCV('SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE'),
      recipient: tupleCV({ version: bufferCV(bytes(1, 4)), hashbytes: bufferCV(bytes(20, 0xee)) }),
      'block-height': uintCV(871_000),
      'max-fee': uintCV(4_000),
    });
    expect(read(print)).toEqual({
      ok: true,
      print: {
        topic: 'withdrawal-create',
        requestId: 412,
        amountSats: 25_000_000n,
        sender: 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE',
        recipient: `04${'ee'.repeat(20)}`,
        blockHeight: 871_000,
        maxFeeSats: 4_000n,
      },
    });
  });

  it('names the field of a known topic in another shape, and returns no print', () => {
    const print = tupleCV({ topic: stringAsciiCV('withdrawal-reject'), 'request-id': boolCV(true), 'signer-bitmap': uintCV(0) });
    expect(read(print)).toEqual({ ok: false, problem: 'sbtc-registry print "withdrawal-reject": request-id: expected a uint, got bool' });
  });

  it('passes over topics it does not read', () => {
    expect(read(tupleCV({ topic: stringAsciiCV('update-protocol-contract') }))).toEqual({ ok: true, print: null });
    expect(read(uintCV(1))).toEqual({ ok: true, print: null });
  });

  it('refuses a key rotation whose key is not 33 bytes', () => {
    const print = tupleCV({
      topic: stringAsciiCV('key-rotation'),
      'new-address': principalCV('SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE'),
      'new-aggregate-pubkey': bufferCV(bytes(32, 2)),
    });
    expect(read(print)).toMatchObject({ ok: false, problem: expect.stringContaining('new-aggregate-pubkey: expected 33 bytes, got 32') });
  });
});
