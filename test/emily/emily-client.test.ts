// The Emily client against a fake Emily over real HTTP: every route it reads, parsed into exact domain values
// (amounts as bigint satoshis, principals as `SP…`), paging, and each way Emily can fail as a typed error that
// names what is wrong. A malformed record in a list is set aside with its problem, never returned as a record.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmilyClient, EMILY_BASE_URLS, EmilyError, type EmilyClientOptions } from '../../lambda/emily';
import { createFakeEmily, depositJson, fulfillmentJson, SAMPLE_RECIPIENT, SAMPLE_SENDER, withdrawalJson, type FakeEmily } from '../support/fake-emily';

const running: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((close) => close()));
});

async function start(options: Partial<EmilyClientOptions> = {}, pageSize?: number): Promise<{ fake: FakeEmily; client: ReturnType<typeof createEmilyClient> }> {
  const fake = createFakeEmily(pageSize);
  const server = await fake.start();
  running.push(server.close);
  const client = createEmilyClient({ network: 'mainnet', baseUrl: server.url, sleep: async () => {}, random: () => 0.5, timeoutMs: 2_000, ...options });
  return { fake, client };
}

async function failure(promise: Promise<unknown>): Promise<EmilyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof EmilyError)) throw new Error(`expected an EmilyError, got ${String(error)}`);
  return error;
}

describe('Emily client: the routes', () => {
  it('knows the mainnet and testnet servers and lets a base URL override them', () => {
    expect(EMILY_BASE_URLS).toEqual({ mainnet: 'https://sbtc-emily.com', testnet: 'https://temp.sbtc-emily-dev.com' });
    expect(createEmilyClient({ network: 'testnet' }).baseUrl).toBe('https://temp.sbtc-emily-dev.com/');
    expect(createEmilyClient({ network: 'mainnet', baseUrl: 'http://127.0.0.1:9' }).baseUrl).toBe('http://127.0.0.1:9/');
  });

  it('refuses a plain-http base URL that is not loopback', () => {
    expect(() => createEmilyClient({ network: 'mainnet', baseUrl: 'http://emily.example.com' })).toThrow(/https/);
  });

  it('reads a deposit by txid and output index into exact values', async () => {
    const { fake, client } = await start();
    const stored = depositJson({ seed: 'a', amount: 123_456_789, status: 'confirmed', fulfillment: fulfillmentJson('a', 870_001) });
    fake.putDeposit(stored);
    const deposit = await client.deposit(stored.bitcoinTxid, 0);
    expect(deposit).toMatchObject({
      bitcoinTxid: stored.bitcoinTxid,
      outputIndex: 0,
      recipient: SAMPLE_RECIPIENT,
      amountSats: 123_456_789n,
      status: 'confirmed',
      lockTime: 950,
      maxFeeSats: 80_000n,
      signersKey: 'ab'.repeat(32),
      fulfillment: {
        bitcoinTxid: stored.fulfillment!.BitcoinTxid,
        stacksTxid: `0x${stored.fulfillment!.StacksTxid}`,
        bitcoinBlockHeight: 870_001,
        btcFeeSats: 2_500n,
      },
    });
    expect(fake.requests[0]!.url).toBe(`/deposit/${stored.bitcoinTxid}/0`);
  });

  it('answers null for a deposit or a withdrawal Emily does not know', async () => {
    const { client } = await start();
    expect(await client.deposit('ab'.repeat(32), 1)).toBeNull();
    expect(await client.withdrawal(42)).toBeNull();
  });

  it('lists deposits by status, page by page, with the lock time read from the reclaim script', async () => {
    const { fake, client } = await start({ pageSize: 2 });
    for (let i = 0; i < 3; i += 1) fake.putDeposit(depositJson({ seed: i, parameters: { maxFee: 1, lockTime: 144 + i } }));
    fake.putDeposit(depositJson({ seed: 'done', status: 'confirmed' }));
    const first = await client.deposits('pending');
    expect(first.items.map((d) => d.lockTime)).toEqual([144, 145]);
    expect(first.nextToken).not.toBeNull();
    const second = await client.deposits('pending', first.nextToken!);
    expect(second.items.map((d) => d.lockTime)).toEqual([146]);
    expect(second.nextToken).toBeNull();
    expect(fake.requests.map((r) => r.url)).toEqual(['/deposit?status=pending&pageSize=2', `/deposit?status=pending&pageSize=2&nextToken=${first.nextToken}`]);
  });

  it('lists withdrawals and reads one by request id', async () => {
    const { fake, client } = await start();
    fake.putWithdrawal(withdrawalJson({ requestId: 7, status: 'accepted', amount: 50_000_000 }));
    const page = await client.withdrawals('accepted');
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      requestId: 7,
      sender: SAMPLE_SENDER,
      amountSats: 50_000_000n,
      status: 'accepted',
      recipientScript: `0014${'cd'.repeat(20)}`,
    });
    const one = await client.withdrawal(7);
    expect(one).toMatchObject({ requestId: 7, maxFeeSats: 40_000n, stacksTxid: `0x${withdrawalJson({ requestId: 7 }).txid}` });
  });

  it('reads the limits, a missing cap as null', async () => {
    const { fake, client } = await start();
    fake.limits = { accountCaps: {}, perDepositCap: null, availableToWithdraw: 5, throttleModeInitiator: 'SP000000000000000000002Q6VF78' };
    expect(await client.limits()).toMatchObject({
      perDepositCapSats: null,
      availableToWithdrawSats: 5n,
      throttleModeInitiator: 'SP000000000000000000002Q6VF78',
    });
  });
});

describe('Emily client: bad input', () => {
  it('refuses a malformed txid before sending anything', async () => {
    const { fake, client } = await start();
    const error = await failure(client.deposit('not-a-txid', 0));
    expect(error.kind).toBe('bad-input');
    expect(error.message).toMatch(/txid "not-a-txid".*64 hex/);
    expect(fake.count()).toBe(0);
  });

  it('sets aside a listed deposit whose amount is not a number, naming it, and keeps the others', async () => {
    const { fake, client } = await start();
    fake.putDeposit(depositJson({ seed: 1 })).putDeposit(depositJson({ seed: 2 }));
    fake.faults.once({ transform: (body) => (((body as { deposits: { amount: unknown }[] }).deposits[1]!.amount = 'lots'), body) });
    const page = await client.deposits('pending');
    expect(page.items).toHaveLength(1);
    expect(page.malformed).toEqual([{ index: 1, id: `${depositJson({ seed: 2 }).bitcoinTxid}:0`, problem: 'deposits[1].amount: expected number, got string' }]);
  });

  it('sets aside a deposit with a malformed txid or a status it does not know', async () => {
    const { fake, client } = await start();
    fake.putDeposit(depositJson({ seed: 1 })).putDeposit(depositJson({ seed: 2 }));
    fake.faults.once({
      transform: (body) => {
        const { deposits } = body as { deposits: Record<string, unknown>[] };
        deposits[0]!.bitcoinTxid = 'zz';
        deposits[1]!.status = 'teleported';
        return body;
      },
    });
    const page = await client.deposits('pending');
    expect(page.items).toEqual([]);
    expect(page.malformed.map((m) => m.problem)).toEqual([
      'deposits[0].bitcoinTxid: expected a Bitcoin txid (64 hex digits)',
      expect.stringMatching(/^deposits\[1\]\.status: .*"pending"/),
    ]);
  });

  it('fails a single record that is malformed with a typed error naming the field', async () => {
    const { fake, client } = await start();
    const stored = depositJson({ seed: 1 });
    fake.putDeposit({ ...stored, amount: -5 });
    const error = await failure(client.deposit(stored.bitcoinTxid, 0));
    expect(error.kind).toBe('malformed-answer');
    expect(error.message).toMatch(/amount/);
  });

  it('names an HTML page as what Emily answered', async () => {
    const { fake, client } = await start();
    fake.faults.once({ body: '<html><head><title>Bad gateway</title></head></html>' });
    const error = await failure(client.limits());
    expect(error.kind).toBe('malformed-answer');
    expect(error.message).toMatch(/GET \/limits: .*HTML page/);
  });

  it('retries a 500 and gives up with the status and the attempts after its retries', async () => {
    const { fake, client } = await start({ maxRetries: 2 });
    fake.faults.times(5, { status: 500 });
    const error = await failure(client.deposits('pending'));
    expect(error.kind).toBe('server');
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/500.*3 attempts/);
    expect(fake.count()).toBe(3);
  });

  it('recovers when a 500 is followed by an answer', async () => {
    const { fake, client } = await start();
    fake.faults.once({ status: 503 });
    expect((await client.deposits('pending')).items).toEqual([]);
    expect(fake.count()).toBe(2);
  });

  it('waits out a 429 and retries', async () => {
    const waits: number[] = [];
    const { fake, client } = await start({ sleep: async (ms) => void waits.push(ms) });
    fake.faults.once({ status: 429, headers: { 'retry-after': '3' } });
    await client.limits();
    expect(waits).toEqual([3_000]);
  });

  it('gives up on a slow Emily after its timeout, naming it', async () => {
    const { fake, client } = await start({ timeoutMs: 100, maxRetries: 1 });
    fake.faults.times(2, { delayMs: 1_000 });
    const error = await failure(client.limits());
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/100 ms/);
  });

  it('names Emily unreachable when nothing listens', async () => {
    const client = createEmilyClient({ network: 'mainnet', baseUrl: 'http://127.0.0.1:1', maxRetries: 1, sleep: async () => {} });
    const error = await failure(client.limits());
    expect(error.kind).toBe('unreachable');
    expect(error.retryable).toBe(true);
  });

  it('names a refused connection by its code', async () => {
    const client = createEmilyClient({ network: 'mainnet', baseUrl: 'http://127.0.0.1:1', maxRetries: 0, sleep: async () => {} });
    const error = await failure(client.limits());
    expect(error.message).toContain('Emily could not be reached: ECONNREFUSED (1 attempt)');
  });

  it('stops reading a 50 MB page at its body bound', async () => {
    const { fake, client } = await start({ maxBodyBytes: 1024 * 1024, timeoutMs: 20_000, maxRetries: 0 });
    fake.faults.once({ body: `{"deposits":[${'{"x":1},'.repeat(6_500_000)}{}]}` });
    const error = await failure(client.deposits('pending'));
    expect(error.kind).toBe('too-large');
    expect(error.message).toMatch(/1048576-byte bound/);
  });

  it('sends no more than its own request bound per run, retries included', async () => {
    const { fake, client } = await start({ maxRequests: 3, maxRetries: 5 });
    fake.faults.times(10, { status: 500 });
    const error = await failure(client.limits());
    expect(error.kind).toBe('budget');
    expect(error.message).toMatch(/3 requests/);
    expect(fake.count()).toBe(3);
    expect(client.stats()).toMatchObject({ requests: 3, errors: 3 });
  });

  it('treats a 400 as a refusal it does not retry', async () => {
    const { fake, client } = await start();
    fake.faults.once({ status: 400, body: { message: 'invalid status' } });
    const error = await failure(client.withdrawals('pending'));
    expect(error.kind).toBe('rejected');
    expect(error.message).toMatch(/invalid status/);
    expect(fake.count()).toBe(1);
  });
});
