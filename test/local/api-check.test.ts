// The network check before the first cycle: what the runner says when /v2/info cannot tell, as it goes on.
import { describe, expect, it } from 'vitest';
import { checkApiNetwork } from '../../lambda/local/api-check';
import { HiroServerError } from '../../lambda/hiro/errors';

describe('checkApiNetwork', () => {
  it('says /v2/info failed without promising a retry by a next run: the runner goes on with this one', async () => {
    const failing = { getNetwork: () => Promise.reject(new HiroServerError({ endpoint: 'GET /v2/info', route: 'GET /v2/info' }, 500, 'node down', 5)) };
    const check = await checkApiNetwork(failing, 'mainnet', 'https://api.example.com');
    expect(check).toEqual({
      verified: false,
      reason: expect.stringMatching(/^api\.example\.com did not answer \/v2\/info \(.*500: node down.*after 5 attempt/),
    });
    expect(check.verified === false && check.reason).not.toMatch(/next run/);
  });
});
