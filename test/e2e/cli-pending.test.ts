// Pending calls and transfers end to end: the real CLI against the fake Hiro API's scripted mempool. A call or
// transfer that a pending rule matches alerts once when first seen waiting; mined, the usual alert follows
// with `pending_key`; dropped or replaced by fee, `pending_dropped` follows once with the API's reason; a run
// that died before saving what it saw sends nothing twice; a mempool the API cannot serve costs one warning.
import { readFile, writeFile } from 'node:fs/promises';
import { Cl } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { coinbase, contractCall, fakeAddress, fakeContractId, ROUTES, transfer } from '../support/fake-hiro';
import { cliSuite } from '../support/cli-suite';
import { jsonLines } from './run-cli';

const attacker = fakeAddress('attacker');
const treasury = fakeAddress('treasury');
const exchange = fakeAddress('exchange');
const vault = fakeContractId('vault');

describe('the CLI alerts calls and transfers waiting in the mempool', () => {
  const suite = cliSuite({
    name: 'pending',
    config: {
      network: 'mainnet',
      calls: [{ contractId: vault, functions: ['set-owner', 'upgrade'], name: 'Owner change', severity: 'critical', pending: true }],
      transfers: [{ asset: 'stx', from: [treasury], minAmount: '1000000', name: 'Treasury outflow', severity: 'critical', pending: true }],
      startHeight: 1,
    },
    setup: ({ chain }) => chain.mine([coinbase()]),
    setupTimeoutMs: 20_000,
  });
  const { fake, chain } = suite;
  const run = async () => {
    fake.clearLog();
    const result = await suite.run(suite.args());
    expect(result.code, result.stderr).toBe(0);
    return { ...result, alerts: jsonLines(result.stdout) };
  };

  let setOwner: { txId: string };
  it("alerts a matching call and transfer once when first seen waiting, with the call's arguments, fee, nonce and receipt time", async () => {
    setOwner = chain.submit(contractCall({ contractId: vault, functionName: 'set-owner', sender: attacker, args: [Cl.principal(attacker)] }), {
      receivedAt: 1_749_999_990,
    });
    const outflow = chain.submit(transfer({ from: treasury, to: exchange, amount: 250_000_000n, memo: 'acct 42' }));
    chain.submit(contractCall({ contractId: vault, functionName: 'deposit', sender: attacker }));
    chain.submit(transfer({ from: treasury, to: exchange, amount: 5 })); // under the threshold

    const { alerts } = await run();
    expect(alerts.map((a) => a.key)).toEqual([`pending_call:${setOwner.txId}`, `pending_transfer:${outflow.txId}`]);
    expect(alerts[0]).toMatchObject({
      type: 'pending_call',
      rule: 'Owner change',
      severity: 'critical',
      tx_id: setOwner.txId,
      sender: attacker,
      contract_id: vault,
      function_name: 'set-owner',
      args: [attacker],
      fee: '3000',
      nonce: 0,
      received_at: 1_749_999_990,
    });
    expect(alerts[1]).toMatchObject({
      type: 'pending_transfer',
      sender: treasury,
      recipient: exchange,
      amount: '250000000',
      memo_text: 'acct 42',
      direction: 'sent',
    });
    expect(fake.count(ROUTES.v3Mempool)).toBe(1);
  });

  it('reads the mempool newest first and stops at what it saw before: one request when nothing new waits', async () => {
    // 60 unwatched calls arrive: a full page of 50 and part of the next, which reaches what the last run saw.
    for (let i = 0; i < 60; i++) chain.submit(contractCall({ contractId: vault, functionName: 'deposit', sender: fakeAddress(`user-${i}`) }));
    expect((await run()).alerts).toEqual([]);
    expect(fake.count(ROUTES.v3Mempool)).toBe(2);

    const { alerts } = await run();
    expect(alerts).toEqual([]);
    expect(fake.count(ROUTES.v3Mempool)).toBe(1);
    expect(fake.requestsTo(ROUTES.v3Mempool)[0]!.query.getAll('type')).toEqual(['contract_call', 'token_transfer']);
  });

  it("gives the mined call its usual alert carrying the pending alert's key, and no second pending alert", async () => {
    chain.mine([coinbase(), setOwner as never]);
    const { alerts } = await run();
    expect(alerts.map((a) => [a.type, a.key, a.pending_key])).toEqual([['contract_call', `contract_call:${setOwner.txId}`, `pending_call:${setOwner.txId}`]]);
  });

  it("alerts once, with the API's reason, when a waiting transaction is dropped unmined", async () => {
    const upgrade = chain.submit(contractCall({ contractId: vault, functionName: 'upgrade', sender: attacker }));
    expect((await run()).alerts.map((a) => a.key)).toEqual([`pending_call:${upgrade.txId}`]);
    chain.drop(upgrade.txId, 'dropped_too_expensive');
    const { alerts } = await run();
    expect(alerts).toEqual([
      expect.objectContaining({
        type: 'pending_dropped',
        key: `pending_dropped:${upgrade.txId}`,
        pending_key: `pending_call:${upgrade.txId}`,
        reason: 'dropped_too_expensive',
        rule: 'Owner change',
        contract_id: vault,
      }),
    ]);
    expect((await run()).alerts).toEqual([]);
  });

  it('alerts a transfer replaced by fee as dropped as soon as the replacement waits, naming it, and the replacement as waiting in its turn', async () => {
    const slow = chain.submit(transfer({ from: treasury, to: exchange, amount: 9_000_000n }));
    expect((await run()).alerts.map((a) => a.key)).toEqual([`pending_transfer:${slow.txId}`]);
    // Its status was read once since (still waiting): the next read is a minute away, unless a replacement shows up.
    expect((await run()).alerts).toEqual([]);
    const fast = chain.replaceByFee(slow.txId);
    const { alerts } = await run();
    expect(alerts.map((a) => a.key)).toEqual([`pending_transfer:${fast.txId}`, `pending_dropped:${slow.txId}`]);
    expect(alerts[0]).toMatchObject({ fee: '6000', nonce: slow.nonce });
    expect(alerts[1]).toMatchObject({
      reason: 'dropped_replace_by_fee',
      replaced_by: fast.txId,
      pending_key: `pending_transfer:${slow.txId}`,
      address: treasury,
    });
  });

  it('sends no pending alert twice when a run died after sending it but before saving what it saw', async () => {
    const call = chain.submit(contractCall({ contractId: vault, functionName: 'set-owner', sender: attacker, args: [Cl.principal(exchange)] }));
    expect((await run()).alerts.map((a) => a.key)).toEqual([`pending_call:${call.txId}`]);
    // A run killed after marking its alert sent, before its mempool state write: that write never landed.
    const journal = suite.path('state.json.journal');
    const lines = (await readFile(journal, 'utf8')).trimEnd().split('\n');
    const write = lines.findLastIndex((line) => line.startsWith('[[["mempool"]'));
    expect(write).toBeGreaterThan(-1);
    await writeFile(journal, `${lines.filter((_, index) => index !== write).join('\n')}\n`);

    expect((await run()).alerts).toEqual([]);
    chain.mine([coinbase(), call as never]);
    // Still followed: the mined call names its pending alert.
    expect((await run()).alerts.map((a) => a.pending_key)).toEqual([`pending_call:${call.txId}`]);
  });

  it.each([
    // The v3 list's 404 alone is an API without it: the v1 list is read (cli-pending-routes.test.ts).
    ['404 on both lists', { status: 404 }],
    ['500', { status: 500 }],
    ['garbled body', { body: '{"results": [' }],
  ])('goes on with the block scan and warns once when the mempool answers %s', async (_name, fault) => {
    const stop = fake.faults.use((r) => (r.route === ROUTES.v3Mempool || r.route === ROUTES.v1Mempool ? fault : undefined));
    try {
      chain.submit(contractCall({ contractId: vault, functionName: 'upgrade', sender: attacker }));
      const block = chain.mine([coinbase(), contractCall({ contractId: vault, functionName: 'set-owner', sender: attacker })]);
      const result = await run();
      expect(result.alerts.map((a) => a.key)).toEqual([`contract_call:${block.txs[1]!.txId}`]);
      // The one notice of a missing v3 list aside (cli-pending-routes.test.ts), one warning.
      expect(result.stderr.split('\n').filter((line) => /mempool/i.test(line) && !line.includes('no v3 mempool list'))).toHaveLength(1);
      expect(fake.count(ROUTES.v3Mempool)).toBe(1);
    } finally {
      stop();
    }
  });
});
