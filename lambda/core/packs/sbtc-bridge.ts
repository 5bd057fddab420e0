// `sbtc-bridge`: the sBTC bridge seen from the Stacks side: the sbtc-registry's prints (large deposits minted,
// large withdrawals requested, rejections, key rotations, protocol updates) and, for named addresses, every
// sBTC mint to and burn from them. The deadlines between Bitcoin and Stacks are the lifecycle tracker's
// (core/sbtc), which runs as a stage (stages/sbtc-lifecycle.ts) because the pack turns on the `sbtcLifecycle`
// section: for every deposit and withdrawal, or with `recipients` and `senders` for a wallet's own (whose mints
// and burns are then watched too); `settled` adds the settled follow-up. An entry without these three expands as
// it always did.
import * as z from '../../zod-mini';
import type { Network } from '../domain';
import { SBTC_MAINNET_DEPLOYER, SETTLED_DEFAULT_BLOCKS, type SbtcLifecycleSection } from '../sbtc/lifecycle-section';
import { lifecycleScopeShape } from '../watch-config/sbtc-lifecycle-schema';
import { list, noDuplicates, principal, recipientSchema, sameString } from '../watch-config/schema-parts';
import { standardAddressProblem } from '../watch-config/stacks-principals';
import type { RulePack } from './pack';

export { SBTC_MAINNET_DEPLOYER };

const amount = z
  .string({ error: 'must be an sBTC amount in quotes with its unit, e.g. "1 sBTC" or "25000000 sats"' })
  .check(z.regex(/^\d[\d,]*(\.\d{1,8})? (sBTC|sats)$/, { error: 'must be an amount with its unit, e.g. "1 sBTC", "0.5 sBTC" or "25000000 sats"' }));

const params = (network: Network | null) =>
  z.object({
    addresses: z.optional(
      list(recipientSchema(network), 'Stacks addresses whose sBTC mints and burns to watch', noDuplicates(sameString, 'addresses', 'the same address')),
    ),
    largeAmount: z._default(amount, '1 sBTC'),
    deployer: z.optional(
      principal(standardAddressProblem, network, 'the address that deployed the sBTC contracts, e.g. "SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4"'),
    ),
    ...lifecycleScopeShape(network),
  });

type Params = z.output<ReturnType<typeof params>>;

const log = (contractId: string, name: string, severity: string, where: Record<string, unknown>) => ({
  contractId,
  where,
  name: `sbtc-bridge: ${name}`,
  severity,
});

export const sbtcBridgePack: RulePack<Params> = {
  name: 'sbtc-bridge',
  version: 1,
  summary:
    'sBTC: large mints and burns, rejected withdrawals, key rotations and protocol updates from the sbtc-registry; every mint and burn of named addresses',
  params,
  problems: (p, network) =>
    network === 'testnet' && p.deployer === undefined
      ? [{ path: ['deployer'], message: "is needed on testnet: give the address that deployed the sBTC contracts there (mainnet's is the default)" }]
      : [],
  expand(p, network) {
    const deployer = p.deployer ?? (network === 'mainnet' ? SBTC_MAINNET_DEPLOYER : '');
    const registry = `${deployer}.sbtc-registry`;
    const token = `${deployer}.sbtc-token::sbtc-token`;
    // A wallet's deposits are mints to it, its withdrawals burns from it: watched beside the addresses.
    const mintedTo = [...new Set([...(p.addresses ?? []), ...(p.recipients ?? [])])];
    const burnedFrom = [...new Set([...(p.addresses ?? []), ...(p.senders ?? [])])];
    return {
      contractLogs: [
        log(registry, 'large deposit minted', 'warning', { topic: 'completed-deposit', amount: { gte: p.largeAmount } }),
        log(registry, 'large withdrawal requested', 'warning', { topic: 'withdrawal-create', amount: { gte: p.largeAmount } }),
        log(registry, 'withdrawal rejected', 'critical', { topic: 'withdrawal-reject' }),
        log(registry, 'signers key rotated', 'warning', { topic: 'key-rotation' }),
        log(registry, 'protocol contract updated', 'critical', { topic: 'update-protocol-contract' }),
      ],
      transfers: [
        ...(mintedTo.length === 0
          ? []
          : [{ asset: token, to: mintedTo, actions: ['mint'], name: 'sbtc-bridge: sBTC minted to a watched address', severity: 'info' }]),
        ...(burnedFrom.length === 0
          ? []
          : [{ asset: token, from: burnedFrom, actions: ['burn'], name: 'sbtc-bridge: sBTC burned from a watched address', severity: 'info' }]),
      ],
      sbtcLifecycle: {
        ...(p.recipients !== undefined ? { recipients: p.recipients } : {}),
        ...(p.senders !== undefined ? { senders: p.senders } : {}),
        ...(p.settled !== undefined ? { settled: p.settled } : {}),
      },
    };
  },
  // A section written beside the pack agrees when it follows the same principals the same way, defaults filled in;
  // its `deadlines` are its own (the pack sets none), so a section beside the pack is where they are set.
  meaning: (section: SbtcLifecycleSection & { settled?: { $comment?: unknown; blocks?: number } }) => ({
    recipients: section.recipients === undefined ? null : [...section.recipients].sort(),
    senders: section.senders === undefined ? null : [...section.senders].sort(),
    settledBlocks: section.settled === undefined ? null : (section.settled.blocks ?? SETTLED_DEFAULT_BLOCKS),
    deployer: section.deployer ?? null,
  }),
};
