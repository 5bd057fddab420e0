// `pox-5-staking`: every print the pox-5 boot contract makes that names one of the given stackers (or pool
// owners) or signer keys, whatever its topic (staking, extending, updating, pool registration, signer key
// grants and their revocation). The rule tests the print's text for the principal or the key's hex, so a topic
// added by a later pox-5 is caught too. pox-4 is not watched: its calls fail since pox-5 replaced it.
import * as z from '../../zod-mini';
import type { Network } from '../domain';
import { list, noDuplicates, recipientSchema, sameString } from '../watch-config/schema-parts';
import type { RulePack } from './pack';

export const POX_5 = { mainnet: 'SP000000000000000000002Q6VF78.pox-5', testnet: 'ST000000000000000000002AMW42H.pox-5' } as const;

const signerKey = z
  .string({ error: 'must be a signer key in quotes: 33 bytes of hex, e.g. "0x02…"' })
  .check(z.regex(/^(0x)?0[23][0-9a-fA-F]{64}$/, { error: 'must be a compressed public key: 33 bytes of hex starting 02 or 03, e.g. "0x02…"' }));

const params = (network: Network | null) =>
  z.object({
    stackers: z.optional(list(recipientSchema(network), 'stackers or pool owners to watch', noDuplicates(sameString, 'stackers', 'the same address'))),
    signerKeys: z.optional(
      list(
        signerKey,
        'signer keys to watch',
        noDuplicates((v) => (typeof v === 'string' ? v.replace(/^0x/, '').toLowerCase() : null), 'signerKeys', 'the same key'),
      ),
    ),
  });

type Params = z.output<ReturnType<typeof params>>;

/** Rule names are at most 60 characters: a long contract principal is shortened in the name only. */
const named = (what: string): string => (what.length > 44 ? `pox-5-staking: ${what.slice(0, 43)}…` : `pox-5-staking: ${what}`);

export const pox5StakingPack: RulePack<Params> = {
  name: 'pox-5-staking',
  version: 1,
  summary: 'PoX-5 staking: every pox-5 print naming the given stackers, pool owners or signer keys',
  params,
  problems: (p) =>
    (p.stackers ?? []).length + (p.signerKeys ?? []).length === 0
      ? [{ path: [], message: 'watches nobody: list at least one address in "stackers" or one key in "signerKeys"' }]
      : [],
  expand(p, network) {
    const contractId = POX_5[network];
    return {
      contractLogs: [
        ...(p.stackers ?? []).map((stacker) => ({ contractId, contains: stacker, name: named(stacker), severity: 'info' })),
        ...(p.signerKeys ?? []).map((key) => {
          const hex = key.replace(/^0x/, '').toLowerCase();
          return { contractId, contains: hex, name: named(`signer key 0x${hex.slice(0, 8)}…`), severity: 'info' };
        }),
      ],
    };
  },
};
