// A generated chain that looks like Stacks mainnet since Nakamoto, to measure the watcher on: blocks of 1 to
// 120 transactions (most small, a few full), a tenure change and coinbase opening each tenure, about a third
// STX transfers and most of the rest contract calls, many of them printing, some through another contract,
// a few failed, and the odd airdrop with hundreds of events. Seeded, so every run sees the same chain.
import type { WatchConfig } from '../lambda/core/watch-config/watch-config-schema';
import {
  coinbase,
  contractCall,
  deploy,
  fakeAddress,
  fakeContractId,
  ftTransferEvent,
  print,
  stxTransferEvent,
  tenureChange,
  transfer,
  type FakeChain,
  type FakeEvent,
  type FakeTxSpec,
} from '../test/support/fake-hiro';
import { seededRandom, type Random } from './prng';
import { emptyWatchConfig } from '../lambda/config/watch-config';

export interface Workload {
  /** The transactions of each block, in order. */
  blocks: FakeTxSpec[][];
  watchedAddresses: string[];
  /** Contracts whose logs are watched (one rule with a `contains` filter). */
  watchedContracts: string[];
  /** A busy sender whose outflows a `transfers` rule watches. */
  treasury: string;
}

const ADDRESS_POOL = 3_000;
const CONTRACT_POOL = 200;
const SENDER_POOL = 500;
const PRINT_OPS = ['swap', 'mint', 'transfer', 'stack', 'deposit', 'withdraw', 'vote', 'claim'];

/** How many transactions a block holds: mostly a handful, a long tail up to the 120 of a busy block. */
function blockSize(random: Random): number {
  const band = random.next();
  if (band < 0.5) return random.int(1, 10);
  if (band < 0.8) return random.int(11, 40);
  if (band < 0.95) return random.int(41, 80);
  return random.int(81, 120);
}

export function mainnetWorkload(options: { seed: number; blocks: number }): Workload {
  const random = seededRandom(options.seed);
  const payouts = seededRandom(options.seed + 1);
  const addresses = Array.from({ length: ADDRESS_POOL }, (_, i) => fakeAddress(`holder-${i}`));
  const senders = Array.from({ length: SENDER_POOL }, (_, i) => fakeAddress(`sender-${i}`));
  const contracts = Array.from({ length: CONTRACT_POOL }, (_, i) => fakeContractId(`app-${i}`, `deployer-${i % 60}`));
  const prints = new Map<string, FakeEvent>();
  // Clarity serialisation is the slow part of building a transaction; a print of the same value is the same event.
  const printOf = (printer: string, op: string): FakeEvent => {
    const key = `${printer}|${op}`;
    let event = prints.get(key);
    if (!event) prints.set(key, (event = print(printer, `{op: "${op}"}`)));
    return event;
  };

  function callTx(): FakeTxSpec {
    const contractId = random.skewed(contracts);
    const status = random.chance(0.09) ? 'abort_by_response' : random.chance(0.03) ? 'abort_by_post_condition' : 'success';
    const events: FakeEvent[] = [];
    const band = random.next();
    const printCount = band < 0.4 ? 0 : band < 0.75 ? 1 : band < 0.9 ? 2 : random.int(3, 5);
    for (let i = 0; i < printCount; i += 1) {
      // One print in five comes from a contract the call reached through the one it called.
      const printer = random.chance(0.2) ? random.skewed(contracts) : contractId;
      events.push(printOf(printer, random.pick(PRINT_OPS)));
    }
    const airdrop = random.chance(0.005);
    const assetEvents = airdrop ? random.int(100, 260) : random.int(0, 6);
    for (let i = 0; i < assetEvents; i += 1) {
      events.push(ftTransferEvent(`${contractId}::token`, random.pick(senders), random.skewed(addresses), random.int(1, 1e6)));
    }
    // Payouts, swaps and withdrawals move STX inside calls; drawn apart so the rest of the chain stays as it was.
    const stxEvents = payouts.chance(0.3) ? payouts.int(1, 10) : 0;
    for (let i = 0; i < stxEvents; i += 1) {
      events.push(stxTransferEvent(contractId, payouts.pick(addresses), payouts.int(1, 5_000) * 10_000));
    }
    return contractCall({ contractId, sender: random.pick(senders), functionName: 'call', events, status });
  }

  function transferTx(): FakeTxSpec {
    return transfer({
      to: random.skewed(addresses, 2),
      from: random.pick(senders),
      amount: random.int(1, 5_000) * 1_000_000,
      status: random.chance(0.03) ? 'abort_by_post_condition' : 'success',
    });
  }

  const blocks: FakeTxSpec[][] = [];
  let tenureLeft = 0;
  let deploys = 0;
  for (let b = 0; b < options.blocks; b += 1) {
    const size = blockSize(random);
    const txs: FakeTxSpec[] = [];
    if (tenureLeft <= 0) {
      txs.push(tenureChange(), coinbase());
      tenureLeft = random.int(30, 90);
    } else if (random.chance(0.05)) {
      txs.push(tenureChange()); // a tenure extend
    }
    tenureLeft -= 1;
    while (txs.length < size) {
      const kind = random.next();
      if (kind < 0.34) txs.push(transferTx());
      else if (kind < 0.98) txs.push(callTx());
      else txs.push(deploy({ contractId: fakeContractId(`new-app-${deploys++}`, 'deployer-new'), logs: random.chance(0.3) ? ['init'] : [] }));
    }
    blocks.push(txs);
  }
  const watchedAddresses = [addresses[0]!, addresses[3]!, ...Array.from({ length: 18 }, (_, i) => addresses[400 + i * 97]!)];
  const watchedContracts = [contracts[0]!, contracts[4]!, ...Array.from({ length: 6 }, (_, i) => contracts[50 + i * 23]!)];
  return { blocks, watchedAddresses, watchedContracts, treasury: senders[0]! };
}

export function mineAll(chain: FakeChain, blocks: readonly FakeTxSpec[][]): void {
  for (const txs of blocks) chain.mine(txs);
}

export type ConfigName = 'transfers only' | 'logs only' | 'both';
export const CONFIG_NAMES: readonly ConfigName[] = ['transfers only', 'logs only', 'both'];

/** The three watch configs the benchmarks compare, starting at `startHeight`. */
export function watchConfig(name: ConfigName, workload: Workload, startHeight: number | 'latest'): WatchConfig {
  const addresses = name === 'logs only' ? [] : workload.watchedAddresses;
  const contractLogs =
    name === 'transfers only' ? [] : workload.watchedContracts.map((contractId, i) => (i === 1 ? { contractId, contains: 'mint' } : { contractId }));
  return {
    ...emptyWatchConfig('mainnet'),
    // "both" also watches the deployment status of the contracts whose logs it watches: a status call a cycle.
    contracts: name === 'both' ? workload.watchedContracts : [],
    addresses,
    contractLogs,
    // A token's arrivals above a threshold, and every asset leaving a treasury.
    transfers:
      name === 'logs only'
        ? []
        : [
            {
              asset: `${workload.watchedContracts[0]}::token`,
              to: workload.watchedAddresses.slice(0, 5),
              from: [],
              minAmount: '500000',
              actions: ['transfer', 'mint', 'burn'],
            },
            { asset: '*', to: [], from: [workload.treasury], actions: ['transfer', 'mint', 'burn'] },
          ],
    startHeight,
    confirmations: 0,
    maxBlocksPerRun: 100_000,
  };
}
