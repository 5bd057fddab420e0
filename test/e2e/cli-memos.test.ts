// Deposits credited by memo, end to end: the real CLI against the fake Hiro API, an exchange's shared address
// receiving send-many-memo legs and native transfers, picked by memo text, by memo bytes, and by a missing memo;
// the same block tried again with --replay gives the same alerts.
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { coinbase, contractCall, fakeAddress, fakeContractId, print, stxTransferEvent, transfer } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';

const exchange = fakeAddress('exchange');
const custodian = fakeAddress('custodian');
const buyer = fakeAddress('buyer');
const sendManyMemo = fakeContractId('send-many-memo', 'send-many');

const leg = (amount: number, memo: Uint8Array | null) => [
  stxTransferEvent(custodian, exchange, amount),
  ...(memo === null ? [] : [print(sendManyMemo, Cl.buffer(memo))]),
];
const text = (value: string) => new TextEncoder().encode(value);

describe('the CLI picks deposits by memo', () => {
  const suite = cliSuite({
    name: 'memos',
    config: {
      network: 'mainnet',
      transfers: [
        { name: 'customer deposit', asset: 'stx', to: [exchange], memo: { startsWith: 'cust-' } },
        { name: 'tagged deposit', asset: 'stx', to: [exchange], memo: { eq: '0xdeadbeef' } },
        { name: 'deposit without memo', severity: 'critical', asset: 'stx', to: [exchange], memo: { exists: false } },
      ],
      startHeight: 1,
    },
    setupTimeoutMs: 20_000,
  });
  const { fake } = suite;

  it('alerts each deposit under the rule its memo satisfies, with memo_text where it reads as text', async () => {
    fake.chain.mine([coinbase()]);
    const block = fake.chain.mine([
      contractCall({
        contractId: sendManyMemo,
        sender: custodian,
        events: [
          ...leg(1_000_000, text('cust-0042')), // 0, 1
          ...leg(2_000_000, Uint8Array.from([0xde, 0xad, 0xbe, 0xef])), // 2, 3
          ...leg(3_000_000, text('someone else')), // 4, 5: matches no rule
          ...leg(4_000_000, null), // 6: no print after it
        ],
      }),
      transfer({ to: exchange, amount: 5_000_000, from: buyer, memo: 'cust-7' }),
      transfer({ to: exchange, amount: 6_000_000, from: buyer }),
      transfer({ to: exchange, amount: 7_000_000, from: buyer, memo: 'wrong' }),
    ]);
    const tx = (i: number) => block.txs[i]!.txId;
    const expected = [
      { key: `stx_transfer:${tx(0)}:0`, rule: 'customer deposit', severity: 'warning', memo_text: 'cust-0042' },
      { key: `stx_transfer:${tx(0)}:2`, rule: 'tagged deposit', severity: 'warning', memo_text: null },
      { key: `stx_transfer:${tx(0)}:6`, rule: 'deposit without memo', severity: 'critical', memo_text: null },
      { key: `token_transfer:${tx(1)}`, rule: 'customer deposit', severity: 'warning', memo_text: 'cust-7' },
      { key: `token_transfer:${tx(2)}`, rule: 'deposit without memo', severity: 'critical', memo_text: null },
    ];
    const pick = (alerts: Record<string, unknown>[]) => alerts.map(({ key, rule, severity, memo_text }) => ({ key, rule, severity, memo_text }));

    const run = await suite.run(suite.args());
    expect(run.code, run.stderr).toBe(0);
    expect(pick(jsonLines(run.stdout))).toEqual(expected);

    const replay = await suite.run(['--replay', String(block.height), '--json', '--config', suite.configPath]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(pick(jsonLines(replay.stdout))).toEqual(expected);
  }, 60_000);
});
