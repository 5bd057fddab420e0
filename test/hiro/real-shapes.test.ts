// Bodies shaped like the API's own documentation examples (older field sets: microblock fields, no
// block_time, inline stx events), served by a bare node:http handler, so the client is checked against
// more than the fake's rendering.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHiroClient } from '../../lambda/hiro';

const HASH = `0x${'9080f6df'.repeat(8)}`;
const PARENT = `0x${'3789b75c'.repeat(8)}`;
const TX = `0x${'19e25515'.repeat(8)}`;

const bodies: Record<string, unknown> = {
  '/extended': {
    server_version: 'stacks-blockchain-api v1.0.7 (master:77b25878)',
    status: 'ready',
    chain_tip: {
      block_height: 48902,
      block_hash: HASH,
      index_block_hash: PARENT,
      microblock_hash: `0x${'ec89a572'.repeat(8)}`,
      microblock_sequence: 0,
    },
  },
  '/extended/v2/blocks/3190/transactions?limit=50&offset=0': {
    limit: 50,
    offset: 0,
    total: 1,
    results: [
      {
        tx_id: TX,
        tx_status: 'success',
        tx_type: 'token_transfer',
        fee_rate: '180',
        sender_address: 'STJTXEJPJPPVDNA9B052NSRRBGQCFNKVS178VGH1',
        sponsored: false,
        post_condition_mode: 'deny',
        is_unanchored: false,
        microblock_hash: '',
        microblock_sequence: 2147483647,
        microblock_canonical: true,
        block_hash: HASH,
        parent_block_hash: PARENT,
        block_height: 3190,
        burn_block_time: 1594227992,
        canonical: true,
        tx_index: 0,
        event_count: 1,
        token_transfer: {
          recipient_address: 'ST1RZG804V6Y0N4XHQD3ZE2GE3XSCV3VHRKMA3GB0',
          amount: '10000',
          memo: `0x${'00'.repeat(34)}`,
        },
        events: [{ event_index: 0, event_type: 'stx_asset', asset: { asset_event_type: 'transfer', amount: '10000' } }],
      },
    ],
  },
  '/extended/v2/smart-contracts/status?contract_id=SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.swap&contract_id=SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.core&contract_id=SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.gone':
    {
      'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.swap': {
        found: true,
        result: { contract_id: 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.swap', status: 'success', tx_id: TX, block_height: 111021 },
      },
      'SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.core': {
        found: true,
        result: { contract_id: 'SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.core', status: 'pending', tx_id: TX },
      },
      'SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.gone': { found: false },
    },
};

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serveBodies(): Promise<string> {
  server = createServer((req, res) => {
    const body = bodies[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: `cannot find ${req.url}` }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('documented answer shapes', () => {
  it('reads a pre-Nakamoto tip with microblock fields', async () => {
    const client = createHiroClient({ baseUrl: await serveBodies() });

    expect(await client.getTip()).toEqual({ height: 48902, hash: HASH, indexBlockHash: PARENT });
  });

  it('reads a block page without block_time, timing the block by burn_block_time', async () => {
    const client = createHiroClient({ baseUrl: await serveBodies() });

    const block = await client.getBlock(3190);

    expect(block?.header).toEqual({ height: 3190, hash: HASH, parentHash: PARENT, time: 1594227992, txCount: 1 });
    expect(block?.transactions[0]?.tokenTransfer?.recipient).toBe('ST1RZG804V6Y0N4XHQD3ZE2GE3XSCV3VHRKMA3GB0');
  });

  it('reads found, pending and not-found statuses as documented', async () => {
    const client = createHiroClient({ baseUrl: await serveBodies() });
    const ids = [
      'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.swap',
      'SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.core',
      'SP4SZE494VC2YC5JYG7AYFQ44F5Q4PYV7DVMDPBG.gone',
    ];

    const statuses = await client.getContractStatuses(ids);

    expect([...statuses.values()].map((s) => [s.found, s.status, s.blockHeight])).toEqual([
      [true, 'success', 111021],
      [true, 'pending', null],
      [false, null, null],
    ]);
  });
});
