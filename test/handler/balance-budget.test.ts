// Balance rules on the Lambda path (DynamoDB on dynalite, SNS mocked at the client) past the invocation's
// share of balance reads: 10 requests a minute on a one-minute schedule read 2 balances an invocation. The
// rules start from block 1 (nothing is held before it: no request), over three invocations, one of them
// after a read the API refused; every invocation scans its blocks, and each crossing alerts once.
import { SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import { entriesAt } from '../../lambda/core/stages/balance-book';
import type { CycleSummary } from '../../lambda/core/cycle-types';
import { createFakeHiro, fakeAddress, ROUTES, transfer } from '../support/fake-hiro';
import { balancesAt } from '../support/fake-hiro/balances';
import { alertOf, lambdaOnDynalite } from '../support/handler-environment';
import { lambdaContext } from '../support/lambda-invocation';

const holders = Array.from({ length: 5 }, (_, i) => fakeAddress(`budget-holder-${i}`));
const treasury = fakeAddress('budget-treasury');
const sns = mockClient(SNSClient);

describe("balance rules past an invocation's share of reads, state in DynamoDB", () => {
  const fake = createFakeHiro();
  const lambda = lambdaOnDynalite<CycleSummary>({
    fake,
    sns,
    tableName: 'stacks-watch-balance-budget',
    extra: { STACKS_API_RPM: '10', SCHEDULE_SECONDS: '60' },
    watchConfig: {
      network: 'mainnet',
      startHeight: 1,
      balances: holders.map((address, i) => ({ name: `holder ${i}`, address, asset: 'stx', above: 10_000 })),
    },
  });
  const { handler } = lambda;

  it('starts the rules over the next invocations, scanning blocks in each, with no read before block 1 and none refused held against the others', async () => {
    const credit = (amount: number) => holders.map((to) => transfer({ to, amount, from: treasury }));
    fake.chain.mine(credit(5_000)); // block 1: every holder at 5,000
    const summaries: CycleSummary[] = [];
    summaries.push(await handler({}, lambdaContext('run-1'))); // holders 0 and 1, read before block 1: no request

    fake.chain.mine(credit(1_000)); // block 2: 6,000
    // The API refuses holder 3's read this invocation; holder 2 starts all the same.
    const refuse = fake.faults.use((request) => (request.route === ROUTES.balances && request.path.includes(holders[3]!) ? { status: 400 } : undefined));
    summaries.push(await handler({}, lambdaContext('run-2'))); // holder 2 read at block 1; holder 3 refused
    refuse();
    // The refusal is counted in the stored book (the operator hears of a read refused 3 runs in a row).
    const store = createDynamoStateStore({ client: lambda.dynamo.client, tableName: lambda.dynamo.tableName, network: 'mainnet' });
    expect((await store.readRecord('balances'))!.unread).toEqual({
      [`holder 3|${holders[3]}|stx||10000`]: { failures: 1, cause: expect.stringContaining('400') },
    });

    fake.chain.mine(credit(1_000)); // block 3: 7,000
    summaries.push(await handler({}, lambdaContext('run-3'))); // holders 3 and 4, read at block 2
    const crossing = fake.chain.mine(credit(4_000)); // block 4: 11,000, above for every holder
    summaries.push(await handler({}, lambdaContext('run-4')));

    expect(summaries.map((s) => [s.stoppedBecause, s.blocksScanned])).toEqual([
      ['caught-up', 1],
      ['caught-up', 1],
      ['caught-up', 1],
      ['caught-up', 1],
    ]);
    expect(fake.requestsTo(ROUTES.balances).map((r) => r.query.get('until_block'))).toEqual(['1', '1', '2', '2']);
    const alerts = lambda.published.map(alertOf);
    expect(alerts.map((a) => [a.rule, a.crossed, a.balance, a.previous_balance, a.tx_id])).toEqual(
      holders.map((_, i) => [`holder ${i}`, 'above', '11000', '7000', crossing.txs[i]!.txId]),
    );
    const book = (await store.readRecord('balances'))!;
    expect(book.unread).toBeUndefined();
    const kept = entriesAt(book, 4);
    expect(holders.map((h, i) => kept[`holder ${i}|${h}|stx||10000`]?.balance)).toEqual(holders.map((h) => String(balancesAt(fake.chain, h, 4).stx)));
  }, 60_000);
});
