// What the watch config's `sbtcLifecycle` section asks of the tracker, and what the run must read for it: the
// sbtc-registry whose prints the tracker follows (the section's `deployer`, else the registries the contractLogs
// rules watch, else mainnet's), so that the section alone makes the scan read those prints and the mints beside
// them (rules/rule-lists.ts adds the registry to the logs the scan reads, with no rule of its own: no alert).
import type { Network } from '../domain';
import { DEFAULT_DEADLINES, type SbtcDeadlines } from './deadlines';

/** The sBTC contracts' deployer on mainnet; a testnet deployment names its own (`deployer`). */
export const SBTC_MAINNET_DEPLOYER = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4';

/** The contract name the sBTC deployment gives its registry, whose prints the tracker reads. */
export const REGISTRY_CONTRACT_NAME = 'sbtc-registry';

/** Bitcoin blocks a completing print must be deep before its settled alert, when `settled` gives none. */
export const SETTLED_DEFAULT_BLOCKS = 6;
/** At most: a finished record is let go 144 blocks after it ends (tracker-state.ts), so it must settle well before. */
export const SETTLED_MAX_BLOCKS = 100;

/** The section as the config check leaves it. */
export interface SbtcLifecycleSection {
  /** Deposits followed: those minted to these principals. */
  recipients?: readonly string[];
  /** Withdrawals followed: those requested by these principals. */
  senders?: readonly string[];
  /** The settled follow-up, opt-in: `{}` for the default depth. */
  settled?: { blocks?: number };
  /** The deployer of the sBTC contracts whose registry is followed; mainnet's by default. */
  deployer?: string;
  /** Deadlines set in place of the signers' defaults (deadlines.ts), in Bitcoin blocks; any subset. */
  deadlines?: Partial<SbtcDeadlines> & { $comment?: unknown };
}

/** The deadlines the section sets, its `$comment` left out; undefined when it sets none. */
export function sectionDeadlines(section: SbtcLifecycleSection): Partial<SbtcDeadlines> | undefined {
  if (section.deadlines === undefined) return undefined;
  const set: Partial<SbtcDeadlines> = {};
  for (const name of Object.keys(DEFAULT_DEADLINES) as (keyof SbtcDeadlines)[]) {
    const value = section.deadlines[name];
    if (value !== undefined) set[name] = value;
  }
  return set;
}

/** The registry contracts whose logs the rules watch. */
export function watchedRegistries(contractIds: Iterable<string>): string[] {
  return [...contractIds].filter((id) => id.split('.')[1] === REGISTRY_CONTRACT_NAME);
}

/**
 * The registries the section follows: its deployer's, beside those the contractLogs rules watch; mainnet's when
 * neither names one. Empty on testnet with neither (the config check refuses that: sectionProblems).
 */
export function lifecycleRegistries(section: SbtcLifecycleSection, network: Network, watched: Iterable<string>): string[] {
  const registries = new Set(watchedRegistries(watched));
  if (section.deployer !== undefined) registries.add(`${section.deployer}.${REGISTRY_CONTRACT_NAME}`);
  if (registries.size === 0 && network === 'mainnet') registries.add(`${SBTC_MAINNET_DEPLOYER}.${REGISTRY_CONTRACT_NAME}`);
  return [...registries];
}

/** The sBTC token of the deployment a registry belongs to: its mints name a deposit's recipient. */
export const tokenOfRegistry = (registry: string): string => `${registry.split('.')[0]}.sbtc-token::sbtc-token`;

/** The scope and follow-up the tracker is set up with. */
export function trackerSettings(section: SbtcLifecycleSection): {
  recipients?: readonly string[];
  senders?: readonly string[];
  settledBlocks: number | null;
  deadlines?: Partial<SbtcDeadlines>;
} {
  const deadlines = sectionDeadlines(section);
  return {
    ...(deadlines !== undefined ? { deadlines } : {}),
    ...(section.recipients !== undefined ? { recipients: section.recipients } : {}),
    ...(section.senders !== undefined ? { senders: section.senders } : {}),
    settledBlocks: section.settled === undefined ? null : (section.settled.blocks ?? SETTLED_DEFAULT_BLOCKS),
  };
}

/** --check's words for the section: whose deposits and withdrawals, from which registry, and the follow-up. */
export function describeLifecycle(section: SbtcLifecycleSection | undefined, network: Network, watched: Iterable<string>): string | null {
  if (section === undefined) return null;
  const named = (list: readonly string[] | undefined, none: string) => (list === undefined || list.length === 0 ? none : list.join(', '));
  const scoped = section.recipients !== undefined || section.senders !== undefined;
  const whose = scoped
    ? `deposits to ${named(section.recipients, 'nobody')} and withdrawals from ${named(section.senders, 'nobody')}`
    : 'every deposit and withdrawal';
  const { settledBlocks } = trackerSettings(section);
  const settled =
    settledBlocks === null ? 'no settled alerts (add "settled": {} for them)' : `a completion alert, then settled ${settledBlocks} Bitcoin blocks after`;
  const set = Object.entries(sectionDeadlines(section) ?? {});
  const deadlines =
    set.length === 0 ? "the signers' deadlines" : `the deadlines (${set.map(([name, blocks]) => `${name} ${blocks}`).join(', ')}, the rest the signers')`;
  return `- sBTC lifecycle: ${deadlines} for ${whose}, read from ${lifecycleRegistries(section, network, watched).join(', ')} (its prints and the sBTC mints beside them); ${settled}`;
}
