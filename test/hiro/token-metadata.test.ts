// A token's decimals and symbol from the token metadata API, read once per token to scale amounts a rule
// writes in its unit: the contract is asked for (without `::token`), and a token the API does not know, or an
// answer without usable decimals, is none rather than a wrong scale.
import { describe, expect, it } from 'vitest';
import { fakeContractId, ROUTES } from '../support/fake-hiro';
import { startHarness } from './harness';

const alex = `${fakeContractId('token-alex')}::alex`;

describe('getTokenMetadata', () => {
  it('reads the decimals and symbol of the token contract', async () => {
    const h = await startHarness();
    h.fake.chain.setTokenMetadata(alex, { decimals: 8, symbol: 'ALEX' });

    expect(await h.client().getTokenMetadata!(alex)).toEqual({ decimals: 8, symbol: 'ALEX' });
    expect(h.fake.requestsTo(ROUTES.tokenMetadata).map((r) => r.path)).toEqual([`/metadata/v1/ft/${fakeContractId('token-alex')}`]);
  });

  it('answers none for a token the API does not know (404), at once', async () => {
    const h = await startHarness();

    expect(await h.client().getTokenMetadata!(alex)).toBeNull();
    expect(h.fake.count(ROUTES.tokenMetadata)).toBe(1);
  });

  it.each([
    ['no decimals', { name: 'Alex', symbol: 'ALEX' }],
    ['decimals not whole', { symbol: 'ALEX', decimals: 1.5 }],
    ['decimals past 38', { symbol: 'ALEX', decimals: 39 }],
    ['decimals in quotes', { symbol: 'ALEX', decimals: '8' }],
  ])('answers none for an answer with %s', async (_what, body) => {
    const h = await startHarness();
    h.fake.faults.once({ body }, ROUTES.tokenMetadata);

    expect(await h.client().getTokenMetadata!(alex)).toBeNull();
  });

  it('keeps the decimals of a token whose symbol cannot be a unit, and cuts a long one to 20 characters', async () => {
    const h = await startHarness();
    h.fake.faults.once({ body: { symbol: 'two words', decimals: 6 } }, ROUTES.tokenMetadata);
    h.fake.faults.once({ body: { symbol: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', decimals: 6 } }, ROUTES.tokenMetadata);

    expect(await h.client().getTokenMetadata!(alex)).toEqual({ decimals: 6 });
    expect(await h.client().getTokenMetadata!(alex)).toEqual({ decimals: 6, symbol: 'ABCDEFGHIJKLMNOPQRST' });
  });
});
