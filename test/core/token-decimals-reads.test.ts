// Reading a config's token decimals: what the state keeps is never asked again, a definite answer without
// decimals is a problem naming the token, no answer (a 5xx, a timeout, a 429) leaves the tokens unread for the
// next run without a problem, and a run asks at most its share of tokens.
import { describe, expect, it } from 'vitest';
import { readTokenDecimals } from '../../lambda/core/watch-config/token-decimals-reads';
import type { TokenMetadata } from '../../lambda/core/watch-config/token-decimals';

const token = (name: string) => `SP102V8P0F7JX67ARQ77WEA3D3CFB5XW39REDT0AM.${name}::${name}`;
const [alex, diko, myst] = [token('alex'), token('diko'), token('myst')];
const config = (...assets: string[]) => ({
  network: 'mainnet',
  balances: assets.map((asset) => ({ address: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR', asset, below: '5 TOK' })),
});

function memoryState(initial: Record<string, TokenMetadata> = {}) {
  const writes: Map<string, TokenMetadata>[] = [];
  let stored = new Map(Object.entries(initial));
  return {
    writes,
    readRecord: async () => Object.fromEntries(stored),
    writeRecord: async (_name: 'tokenDecimals', tokens: Record<string, TokenMetadata> | null) => {
      stored = new Map(Object.entries(tokens ?? {}));
      writes.push(new Map(stored));
    },
  };
}

function chainAnswering(answers: Record<string, TokenMetadata | null | Error>) {
  const asked: string[] = [];
  return {
    asked,
    getTokenMetadata: async (asset: string) => {
      asked.push(asset);
      const answer = answers[asset];
      if (answer instanceof Error) throw answer;
      return answer ?? null;
    },
  };
}

describe('reading the token decimals a config needs', () => {
  it('never asks the API for a token the state keeps', async () => {
    const state = memoryState({ [alex]: { decimals: 8, symbol: 'ALEX' } });
    const chain = chainAnswering({});
    const reading = await readTokenDecimals(config(alex), { state, chain });
    expect(reading.tokens.get(alex)).toEqual({ decimals: 8, symbol: 'ALEX' });
    expect(chain.asked).toEqual([]);
    expect(state.writes).toEqual([]);
  });

  it('leaves the tokens unread, with no problem, when the API gives no answer, keeping what was read before it', async () => {
    const state = memoryState();
    const chain = chainAnswering({ [alex]: { decimals: 8 }, [diko]: new Error('503 Service Unavailable after 5 attempts'), [myst]: { decimals: 6 } });
    const reading = await readTokenDecimals(config(alex, diko, myst), { state, chain });
    expect(reading.problems).toEqual([]);
    expect(reading.unread).toEqual({ tokens: [diko, myst], reason: expect.stringContaining('503 Service Unavailable'), cause: expect.any(Error) });
    expect(chain.asked).toEqual([alex, diko]); // the API is out: the tokens after it are not asked
    expect(state.writes).toEqual([new Map([[alex, { decimals: 8 }]])]);
  });

  it('refuses a token the API answers for without decimals, naming it and the fix', async () => {
    const reading = await readTokenDecimals(config(myst), { state: memoryState(), chain: chainAnswering({ [myst]: null }) });
    expect(reading.unread).toBeNull();
    expect(reading.problems).toEqual([
      expect.objectContaining({ value: myst, message: expect.stringMatching(/not in the token metadata API.*give "decimals"/) }),
    ]);
  });

  it('asks at most maxReads tokens a run and leaves the rest to the next runs', async () => {
    const state = memoryState();
    const chain = chainAnswering({ [alex]: { decimals: 8 }, [diko]: { decimals: 6 } });
    const first = await readTokenDecimals(config(alex, diko), { state, chain, maxReads: 1 });
    expect(chain.asked).toEqual([alex]);
    expect(first.unread).toEqual({ tokens: [diko], reason: expect.stringContaining('at most 1 ') });
    const second = await readTokenDecimals(config(alex, diko), { state, chain, maxReads: 1 });
    expect(chain.asked).toEqual([alex, diko]);
    expect(second.unread).toBeNull();
    expect([...second.tokens.keys()].sort()).toEqual([alex, diko].sort());
  });
});
