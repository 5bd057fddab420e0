// `npm run config -- init`: a starter watch.json from a few flags, valid by construction (the watcher's own
// validator checks it before it is written, so a mistyped address is refused here, not at the first run).
import type { Network } from '../../lambda/core/domain';
import { parseWatchConfig, type ConfigProblem } from '../../lambda/config/watch-config';

export interface StarterOptions {
  addresses: string[];
  contracts: string[];
  network?: Network;
}

export type StarterResult = { ok: true; config: Record<string, unknown> } | { ok: false; problems: string[] };

/** SP/SM are mainnet, ST/SN testnet (the version character after S). */
function networkOf(principal: string): Network | undefined {
  if (/^S[PM]/.test(principal)) return 'mainnet';
  if (/^S[TN]/.test(principal)) return 'testnet';
  return undefined;
}

function pickNetwork(options: StarterOptions): { network?: Network; problems: string[] } {
  const implied = new Set([...options.addresses, ...options.contracts].map(networkOf).filter((n): n is Network => n !== undefined));
  if (options.network) {
    const wrong = [...implied].filter((n) => n !== options.network);
    return {
      network: options.network,
      problems: wrong.length > 0 ? [`--network ${options.network}, but some addresses are ${wrong.join(', ')} ones (SP/SM: mainnet, ST/SN: testnet)`] : [],
    };
  }
  if (implied.size === 1) return { network: [...implied][0]!, problems: [] };
  if (implied.size > 1) return { problems: ['the addresses mix mainnet (SP/SM) and testnet (ST/SN): one watcher watches one network'] };
  return { problems: ['give --address SP…, --contract SP….name or --network mainnet|testnet'] };
}

/** A problem with one of the flags' values names the value, not the path in a file the user has not seen. */
const problemLine = (p: ConfigProblem) => `${typeof p.value === 'string' ? `"${p.value}"` : p.path}: ${p.message}`;

/** With nothing named, the network's PoX boot contract: it prints on most blocks, so alerts come within minutes. */
const BOOT_POX: Record<Network, string> = {
  mainnet: 'SP000000000000000000002Q6VF78.pox-5',
  testnet: 'ST000000000000000000002AMW42H.pox-5',
};

export function starterConfig(options: StarterOptions): StarterResult {
  const { network, problems } = pickNetwork(options);
  if (!network) return { ok: false, problems };
  const config: Record<string, unknown> = {
    $schema: './watch.schema.json',
    $comment: 'Written by `npm run config -- init`. Every field: docs/watch-config.md and watch.example.json.',
    network,
  };
  const contracts = options.contracts.length + options.addresses.length > 0 ? options.contracts : [BOOT_POX[network]];
  if (contracts.length > 0) config.contracts = contracts;
  const transfers = options.addresses.flatMap((address) => [
    { $comment: 'STX, tokens and NFTs arriving', name: `into ${address}`, asset: '*', to: [address] },
    { $comment: 'STX, tokens and NFTs leaving (sent or burnt)', name: `out of ${address}`, asset: '*', from: [address] },
  ]);
  if (transfers.length > 0) config.transfers = transfers;
  if (contracts.length > 0) {
    config.contractLogs = contracts.map((contractId) => ({ $comment: 'everything it prints', contractId }));
    config.calls = contracts.map((contractId) => ({ $comment: 'calls to it that failed', contractId, status: 'failed' }));
  }
  config.startHeight = 'latest';
  const checked = parseWatchConfig(config);
  if (!checked.ok || problems.length > 0) return { ok: false, problems: [...new Set([...problems, ...(checked.ok ? [] : checked.problems.map(problemLine))])] };
  return { ok: true, config };
}
