// What the API says in an error reaches log lines, terminals and the operator's notices: it stays on one line
// (a line feed in it could forge a log line), and a refused request says what the API refused and on which
// route, calling it a bug in stacks-watch only when the request itself was malformed.
import { describe, expect, it } from 'vitest';
import { HiroBadRequestError, HiroInconsistentDataError, HiroRequestRejectedError, HiroServerError } from '../../lambda/hiro';
import { coinbase, contractCall, fakeContractId, ROUTES } from '../support/fake-hiro';
import { rejectionOf, startHarness } from './harness';

const FORGED = 'down\n{"level":"ERROR","message":"forged"}\r\nnext\u2028line\ttab';

function expectOneLine(message: string): void {
  expect(message).not.toMatch(/[\r\n\u2028\u2029\t]/);
  expect(message).toContain('\\n{"level":"ERROR","message":"forged"}\\r\\nnext\\u2028line\\ttab');
}

describe('API error text in messages', () => {
  it('shows the line feeds of a 5xx message as escapes, on one line', async () => {
    const h = await startHarness();
    h.fake.chain.mine([coinbase()]);
    h.fake.faults.use(() => ({ status: 503, body: { error: 'Service Unavailable', message: FORGED } }));

    const error = await rejectionOf(h.client({ maxRetries: 0 }).getTip());

    expect(error).toBeInstanceOf(HiroServerError);
    expectOneLine(error.message);
  });

  it('shows the line feeds of a plain-text 400 body as escapes, on one line', async () => {
    const h = await startHarness();
    h.fake.faults.once({ status: 400, body: FORGED });

    const error = await rejectionOf(h.client().getContractStatuses([fakeContractId('a')]));

    expectOneLine(error.message);
  });

  it('shows the line feeds of a value an inconsistency names (a v3 events cursor) as escapes', async () => {
    const h = await startHarness();
    const block = h.fake.chain.mine([contractCall({ contractId: fakeContractId('vault'), logs: ['x'] })]);
    h.fake.retire(ROUTES.txMultiple);
    h.fake.faults.once({ transform: (body) => ({ ...(body as object), cursor: { next: FORGED } }) }, ROUTES.v3TransactionEvents);

    const error = await rejectionOf(h.client().getTransactionEvents([{ txId: block.txs[0]!.txId, eventCount: 1 }]));

    expect(error).toBeInstanceOf(HiroInconsistentDataError);
    expectOneLine(error.message);
  });
});

describe('a request the API refuses', () => {
  it('names the route and what the API refused for a 400 about a value, without calling it a bug', async () => {
    const h = await startHarness();
    h.fake.faults.once({ status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'Invalid contract id' } });

    const error = await rejectionOf(h.client().getContractStatuses([fakeContractId('a')]));

    expect(error).toBeInstanceOf(HiroBadRequestError);
    expect(error.message).toContain(`refused the request to ${ROUTES.contractStatus}`);
    expect(error.message).toContain('Invalid contract id');
    expect(error.message).not.toContain('bug in stacks-watch');
  });

  it('calls a 400 that finds the request malformed (a schema validation) a bug in stacks-watch', async () => {
    const h = await startHarness();
    h.fake.faults.once({
      status: 400,
      body: { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'querystring/limit must be <= 50' },
    });

    const error = await rejectionOf(h.client().getContractStatuses([fakeContractId('a')]));

    expect(error.message).toContain(`refused the request to ${ROUTES.contractStatus} as malformed`);
    expect(error.message).toContain('bug in stacks-watch');
  });

  it('names the route for any other 4xx', async () => {
    const h = await startHarness();
    h.fake.faults.once({ status: 422, body: { error: 'Unprocessable Entity', message: 'unknown principal' } });

    const error = await rejectionOf(h.client().getContractStatuses([fakeContractId('a')]));

    expect(error).toBeInstanceOf(HiroRequestRejectedError);
    expect(error.message).toContain(`refused the request to ${ROUTES.contractStatus} (422: unknown principal)`);
  });
});
