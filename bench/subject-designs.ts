// Designs for reading 20 subjects that the watcher does not implement, counted from the generated chain itself
// (table 1e): the least any exact per-subject reader pays, what reading quiet subjects every other run would save
// and delay, and what letting the blocks' transaction lists pick the subjects would cost and miss. The counts
// follow the API's shapes (docs/api-routes.md): a run reads the header chain once and each subject once; log items
// name no block (one batch lookup of up to 100 transactions a run with new prints); a principal's row names no
// event (one events read per contract call that moved STX to a watched address; a native transfer's summary says
// it all); a block's transaction list (50 a page) names senders, sponsors, native recipients and called contracts.
import type { FakeTxSpec } from '../test/support/fake-hiro';

/** The subjects of a watch list: addresses (their STX movements) and contracts (their prints). */
export interface DesignSubjects {
  addresses: readonly string[];
  contracts: readonly string[];
}

export interface DesignCounts {
  runs: number;
  blocks: number;
  /** Every request of the design over the runs. */
  requests: number;
}

/** The floor of any exact per-subject reader, and its quiet-subject and transaction-list variants. */
export interface SubjectDesigns {
  floor: DesignCounts;
  quiet: DesignCounts & { quietAfterRuns: number; activeSubjectRuns: number; lateSubjectRuns: number };
  txList: DesignCounts & { items: number; missed: number };
}

/** Transaction ids a batch lookup takes at most (URLs past ~16 KiB answer 431). */
const BATCH_IDS = 100;
/** Transactions a page of a block's v3 transaction list holds at most. */
const LIST_PAGE = 50;

interface Asset {
  recipient?: string;
}

/** What one transaction brings a subject: a print to place (batch lookup) or STX to read from its events. */
interface Hit {
  subject: string;
  txId: string;
  /** A print of a watched contract (its block comes from the batch lookup). */
  print: boolean;
  /** STX arriving at a watched address inside a contract call (its events must be read). */
  events: boolean;
}

/** Whom a transaction's summary names: its sender, sponsor, native-transfer recipient, called contract. */
function namedBy(tx: FakeTxSpec): Set<string> {
  const payload = tx.payload as { token_transfer?: { recipient_address: string }; contract_call?: { contract_id: string } };
  return new Set([tx.sender, tx.sponsor, payload.token_transfer?.recipient_address, payload.contract_call?.contract_id].filter((p): p is string => !!p));
}

/** The subjects a transaction touches: contracts that printed, addresses that received STX. */
function hitsOf(tx: FakeTxSpec, txId: string, subjects: DesignSubjects): Hit[] {
  const hits = new Map<string, Hit>();
  for (const event of tx.events) {
    const printer = event.event_type === 'smart_contract_log' ? (event.contract_log as { contract_id: string }).contract_id : undefined;
    if (printer && subjects.contracts.includes(printer)) hits.set(printer, { subject: printer, txId, print: true, events: false });
    const recipient = event.event_type === 'stx_asset' ? (event.asset as Asset).recipient : undefined;
    // A native transfer's own movement comes with its summary; STX moved by a contract needs the events.
    if (recipient && subjects.addresses.includes(recipient))
      hits.set(recipient, { subject: recipient, txId, print: false, events: tx.txType !== 'token_transfer' });
  }
  return [...hits.values()];
}

/** The requests that resolve `hits` read in one run: a batch per 100 printing transactions, an events read per transaction left open. */
function extras(hits: readonly Hit[]): number {
  const prints = new Set(hits.filter((hit) => hit.print).map((hit) => hit.txId));
  const events = new Set(hits.filter((hit) => hit.events).map((hit) => hit.txId));
  return Math.ceil(prints.size / BATCH_IDS) + events.size;
}

interface Run {
  /** The run's blocks, for their transaction lists. */
  txs: FakeTxSpec[][];
  hits: Hit[];
  /** The subjects some transaction summary of the run names. */
  named: Set<string>;
}

/** The runs over `blocks`, `blocksPerRun` blocks each, with their hits. */
function runsOf(blocks: readonly FakeTxSpec[][], blocksPerRun: number, subjects: DesignSubjects): Run[] {
  const all = new Set([...subjects.addresses, ...subjects.contracts]);
  const runs: Run[] = [];
  for (let at = 0; at + blocksPerRun <= blocks.length; at += blocksPerRun) {
    const txs = blocks.slice(at, at + blocksPerRun);
    const named = new Set(txs.flat().flatMap((tx) => [...namedBy(tx)].filter((p) => all.has(p))));
    runs.push({ txs, named, hits: txs.flatMap((block, b) => block.flatMap((tx, i) => hitsOf(tx, `${at + b}:${i}`, subjects))) });
  }
  return runs;
}

/**
 * Counts the three designs over `blocks`, `blocksPerRun` blocks a run. Quiet subjects: a subject with nothing new
 * in its last `quietAfterRuns` reads is read every other run, and a run that skips it leaves its news to the next.
 */
export function countSubjectDesigns(blocks: readonly FakeTxSpec[][], subjects: DesignSubjects, blocksPerRun: number, quietAfterRuns = 3): SubjectDesigns {
  const runs = runsOf(blocks, blocksPerRun, subjects);
  const all = [...subjects.addresses, ...subjects.contracts];
  const counted = { runs: runs.length, blocks: runs.length * blocksPerRun };
  const floor = runs.reduce((sum, run) => sum + 1 + all.length + extras(run.hits), 0);
  return {
    floor: { ...counted, requests: floor },
    quiet: { ...counted, ...quietSubjects(runs, all, quietAfterRuns) },
    txList: { ...counted, ...txListPicks(runs) },
  };
}

/** A subject quiet for its last `quietAfterRuns` reads is read on even runs only; what a skipped run held waits for its next read. */
function quietSubjects(runs: readonly Run[], all: readonly string[], quietAfterRuns: number) {
  const quietFor = new Map(all.map((subject) => [subject, 0]));
  const waiting = new Map<string, Hit[]>(all.map((subject) => [subject, []]));
  let requests = 0;
  let activeSubjectRuns = 0;
  let lateSubjectRuns = 0;
  runs.forEach((run, index) => {
    const resolved: Hit[] = [];
    let reads = 0;
    for (const subject of all) {
      const own = run.hits.filter((hit) => hit.subject === subject);
      if (own.length > 0) activeSubjectRuns += 1;
      waiting.get(subject)!.push(...own);
      if (quietFor.get(subject)! >= quietAfterRuns && index % 2 === 1) {
        if (own.length > 0) lateSubjectRuns += 1;
        continue;
      }
      reads += 1;
      const news = waiting.get(subject)!.splice(0);
      resolved.push(...news);
      quietFor.set(subject, news.length > 0 ? 0 : quietFor.get(subject)! + 1);
    }
    requests += 1 + reads + extras(resolved);
  });
  return { requests, quietAfterRuns, activeSubjectRuns, lateSubjectRuns };
}

/**
 * The blocks' transaction lists (a page per 50 transactions) pick the subjects to read: each subject some summary of
 * the run names, read whole for the run; a subject no summary names is not read, and what it received is missed.
 */
function txListPicks(runs: readonly Run[]) {
  let requests = 0;
  let missed = 0;
  for (const run of runs) {
    const pages = run.txs.reduce((sum, txs) => sum + Math.max(1, Math.ceil(txs.length / LIST_PAGE)), 0);
    const read = run.hits.filter((hit) => run.named.has(hit.subject));
    missed += run.hits.length - read.length;
    requests += 1 + pages + run.named.size + extras(read);
  }
  return { requests, items: runs.reduce((sum, run) => sum + run.hits.length, 0), missed };
}
