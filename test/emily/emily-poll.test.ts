// One run's read of Emily: the open lists, the limits and the followed records that left them, in a bounded
// number of requests; a failure part-way keeps what was read and names what failed.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmilyClient } from '../../lambda/emily';
import { pollEmily } from '../../lambda/emily/poll';
import { createFakeEmily, depositJson, fulfillmentJson, withdrawalJson } from '../support/fake-emily';

const running: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((close) => close()));
});

async function start(maxRequests = 12, pageSize?: number) {
  const fake = createFakeEmily();
  const server = await fake.start();
  running.push(server.close);
  const client = createEmilyClient({
    network: 'mainnet',
    baseUrl: server.url,
    sleep: async () => {},
    maxRequests,
    maxRetries: 1,
    ...(pageSize ? { pageSize } : {}),
  });
  return { fake, client };
}

describe('pollEmily', () => {
  it('reads the open lists and the limits in 5 requests when nothing has left them', async () => {
    const { fake, client } = await start();
    fake
      .putDeposit(depositJson({ seed: 1 }))
      .putDeposit(depositJson({ seed: 2, status: 'accepted' }))
      .putWithdrawal(withdrawalJson({ requestId: 3 }));
    const poll = await pollEmily(client);
    expect(poll.error).toBeNull();
    expect(poll.observations.map((o) => ('deposit' in o ? `d:${o.deposit.status}` : 'withdrawal' in o ? `w:${o.withdrawal.status}` : 'limits'))).toEqual([
      'd:pending',
      'd:accepted',
      'w:pending',
      'limits',
    ]);
    expect(fake.count()).toBe(5);
  });

  it('asks after each followed deposit that left the open lists, and learns it was minted', async () => {
    const { fake, client } = await start();
    const minted = depositJson({ seed: 9, status: 'confirmed', fulfillment: fulfillmentJson(9, 871_000) });
    fake.putDeposit(minted);
    const poll = await pollEmily(client, { deposits: [`${minted.bitcoinTxid}:0`] });
    expect(poll.observations.filter((o) => 'deposit' in o)).toMatchObject([{ deposit: { status: 'confirmed' } }]);
    expect(fake.count()).toBe(6);
  });

  it('keeps what it read before Emily failed, names the failure and stops', async () => {
    const { fake, client } = await start();
    fake.putDeposit(depositJson({ seed: 1 }));
    fake.faults.times(10, { status: 503 }, (r) => r.url.includes('status=accepted'));
    const poll = await pollEmily(client);
    expect(poll.observations).toHaveLength(1);
    expect(poll.error?.kind).toBe('server');
    expect(fake.count()).toBe(3);
  });

  it('reads a list page by page, up to its page bound', async () => {
    const { fake, client } = await start(20, 1);
    for (let i = 0; i < 3; i += 1) fake.putDeposit(depositJson({ seed: i }));
    expect((await pollEmily(client)).observations.filter((o) => 'deposit' in o)).toHaveLength(3);
    expect((await pollEmily(client, { maxPages: 2 })).observations.filter((o) => 'deposit' in o)).toHaveLength(2);
  });

  it('stays inside the run bound, naming it when spent', async () => {
    const { fake, client } = await start(3);
    const poll = await pollEmily(client, { withdrawals: [1, 2, 3] });
    expect(poll.error?.kind).toBe('budget');
    expect(fake.count()).toBe(3);
  });
});
