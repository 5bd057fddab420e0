// Table 10: what polling Emily (sBTC's public API) costs the runs. The real cycle follows a chain against the fake
// Hiro API and the fake Emily over HTTP, a run a minute and a Bitcoin block every ten runs, while deposits arrive
// at a mainnet-like rate and meet generated fates (minted on time, late, failed, replaced). Counted: requests to
// Emily per run and per Bitcoin block, the runs over two, the sBTC state's bytes; priced: the Lambda time the
// requests add (at an assumed round trip, as the other tables assume Hiro's) at list price.
import { PRICES, RUNS_PER_MONTH } from './aws-prices';
import { MEMORY_GB } from './cycle-cost';
import { dollars, fixed, percent, table, thousands } from './markdown';
import { seededRandom } from './prng';
import { completedDepositTx, startSbtcWorld, type SbtcWorld } from '../test/support/sbtc-world';
import type { DepositJson } from '../test/support/fake-emily';
import { countWay, DEFAULT_FETCH_WAY, READ_COLUMN_NOTE, waysAsked, waysCell, type WaysTaken } from './fetch-ways';

/** An Emily request's round trip from the function, assumed (Emily runs behind API Gateway on AWS). */
export const EMILY_LATENCY_MS = 200;
/** Runs per Bitcoin block at a one-minute schedule (a Bitcoin block is about ten minutes). */
const RUNS_PER_BITCOIN_BLOCK = 10;
const BITCOIN_BLOCKS_PER_MONTH = 30 * 144;

export interface SbtcEmilyRow {
  scenario: string;
  /** The way the runs were asked to read the chain (the watcher's default) and the ways they took. */
  read: WaysTaken;
  bitcoinBlocks: number;
  runs: number;
  deposits: number;
  /** Requests per run after the first (which also lists the open withdrawals, once). */
  perRun: number;
  maxPerRun: number;
  runsOverTwo: number;
  perBitcoinBlock: number;
  firstRun: number;
  alerts: number;
  stateBytes: number;
  monthly: { requests: number; gbSeconds: number; dollars: number };
}

type Fate = 'on time' | 'late' | 'failed' | 'replaced';

function fateOf(p: number): Fate {
  if (p < 0.9) return 'on time';
  if (p < 0.95) return 'late';
  return p < 0.98 ? 'failed' : 'replaced';
}

/** What happens to each deposit, by Bitcoin block: accepted a block after it is registered, then its fate. */
function script(w: SbtcWorld, deposit: DepositJson, fate: Fate, born: number, plan: Map<number, (() => void)[]>, prints: Map<number, DepositJson[]>) {
  const at = (block: number, step: () => void) => plan.set(block, [...(plan.get(block) ?? []), step]);
  if (fate === 'replaced') return at(born + 1, () => w.setStatus(deposit, 'rbf', { replacedByTx: deposit.bitcoinTxid.split('').reverse().join('') }));
  at(born + 1, () => w.setStatus(deposit, 'accepted'));
  if (fate === 'failed') return at(born + 2, () => w.setStatus(deposit, 'failed'));
  const minted = born + (fate === 'late' ? 5 : 2);
  prints.set(minted, [...(prints.get(minted) ?? []), deposit]);
  at(minted, () => w.setStatus(deposit, 'confirmed'));
}

export async function measureScenario(scenario: string, depositsPerBlock: number, bitcoinBlocks: number, seed = 20261126): Promise<SbtcEmilyRow> {
  const random = seededRandom(seed);
  const w = await startSbtcWorld({ fetchWay: DEFAULT_FETCH_WAY });
  const read = waysAsked(DEFAULT_FETCH_WAY);
  // The runs after the first, as the table's runs count them.
  const runOnce = async (counted = true) => {
    const done = await w.run();
    if (counted) countWay(read, done.summary);
    return done.emilyRequests;
  };
  try {
    const plan = new Map<number, (() => void)[]>();
    const prints = new Map<number, DepositJson[]>();
    let deposits = 0;
    const first = await runOnce(false);
    const counts: number[] = [];
    for (let block = 1; block <= bitcoinBlocks; block++) {
      // Arrivals: a Poisson-like count from the rate, registered pending with Emily before the block.
      for (let left = depositsPerBlock; left > 0; left -= 1) {
        if (left < 1 && !random.chance(left)) break;
        const deposit = w.deposit(`${scenario}-${deposits++}`);
        script(w, deposit, fateOf(random.next()), block, plan, prints);
      }
      const base = w.bitcoinHeight + 1;
      w.bitcoinBlock((prints.get(block) ?? []).map((d) => completedDepositTx(d, base)));
      for (const step of plan.get(block) ?? []) step();
      for (let run = 0; run < RUNS_PER_BITCOIN_BLOCK; run++) {
        if (run > 0) w.hiro.chain.mine([]);
        counts.push(await runOnce());
      }
    }
    const total = counts.reduce((a, b) => a + b, 0);
    const stateBytes = JSON.stringify((await w.state.readRecord('sbtcLifecycle')) ?? {}).length;
    const perBitcoinBlock = total / bitcoinBlocks;
    const requests = perBitcoinBlock * BITCOIN_BLOCKS_PER_MONTH;
    const gbSeconds = (requests * EMILY_LATENCY_MS * MEMORY_GB) / 1000;
    return {
      scenario,
      read,
      bitcoinBlocks,
      runs: counts.length,
      deposits,
      perRun: total / counts.length,
      maxPerRun: Math.max(...counts),
      runsOverTwo: counts.filter((n) => n > 2).length,
      perBitcoinBlock,
      firstRun: first,
      alerts: w.sbtcKeys().length,
      stateBytes,
      monthly: { requests, gbSeconds, dollars: gbSeconds * PRICES.lambdaGbSecond },
    };
  } finally {
    await w.close();
  }
}

export async function measureSbtcEmily(): Promise<SbtcEmilyRow[]> {
  return [await measureScenario('mainnet-like, ~50 deposits a day', 0.35, 36), await measureScenario('a busy day, ~430 deposits', 3, 36)];
}

export function sbtcEmilySection(rows: SbtcEmilyRow[]): string {
  return [
    '### 10. Emily (sBTC) requests a run, and what they cost',
    '',
    `The real cycle with the sBTC lifecycle on, against the fake Hiro API and the fake Emily over HTTP: a run a minute, a Bitcoin block every ${RUNS_PER_BITCOIN_BLOCK} runs, ` +
      'deposits registered pending and then minted on time (90 %), late (5 %), failed (3 %) or replaced (2 %). Emily is asked once a Bitcoin block, at the first block ' +
      "the scan applies at the tip's Bitcoin height: the two open deposit lists in that run, the limits in the next, a followed deposit alone only when it left the lists " +
      `without the print of its mint (a failed or replaced one); the first run also lists the open withdrawals, once. Goal: at most 2 a run in the common case. ` +
      `Monthly: ${thousands(BITCOIN_BLOCKS_PER_MONTH)} Bitcoin blocks, each request adding an assumed ${EMILY_LATENCY_MS} ms to a ${MEMORY_GB * 1024} MB run ` +
      `(no run of its own: the ${thousands(RUNS_PER_MONTH)} runs a month are there anyway), at $${PRICES.lambdaGbSecond} a GB-s. ${READ_COLUMN_NOTE}`,
    '',
    table(
      [
        'scenario',
        'read',
        'Bitcoin blocks',
        'runs',
        'deposits',
        'requests / run',
        'max / run',
        'runs over 2',
        'requests / Bitcoin block',
        'first run',
        'sBTC alerts',
        'state bytes',
        'requests / month',
        'Lambda GB-s / month',
        'cost / month',
      ],
      rows.map((r) => [
        r.scenario,
        waysCell(r.read),
        r.bitcoinBlocks,
        r.runs,
        r.deposits,
        fixed(r.perRun, 2),
        r.maxPerRun,
        `${r.runsOverTwo} (${percent(r.runsOverTwo / r.runs)})`,
        fixed(r.perBitcoinBlock, 2),
        r.firstRun,
        r.alerts,
        thousands(r.stateBytes),
        thousands(r.monthly.requests),
        fixed(r.monthly.gbSeconds, 1),
        dollars(r.monthly.dollars),
      ]),
    ),
  ].join('\n');
}
