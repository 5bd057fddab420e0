// The API reads of the balance rules, before a block is applied: at the block before it, one read per address
// whatever its rules (one request while the v1 route answers, three or more once it is retired), only for the rules balance-tracker.ts says are due (a first check, a gap, a
// reconciliation). A reconciliation that finds the kept balance wrong corrects it, logs it and tells the
// operator once.
//
// A run reads at most its share of the request budget (BalanceReadAllowance, in requests): past it the rules stay due and
// the next runs read them, while the blocks are scanned every run. A read that fails holds back no other rule
// and no block: its rule waits (balance-tracker.ts, `tracking`) and a later run reads it. The reads of one
// block run in parallel and are settled together, so no failure is left unhandled.
import { BalanceUnavailableError, type Block, type PrincipalBalances } from '../domain';
import type { BalanceTracker, CompiledBalanceRule } from './balance-tracker';
import type { BalanceEntry } from './balance-book';
import { ApiBackoffError } from '../follow/api-backoff';
import { RETRY_MAX_BLOCKS } from './balance-retry';
import { isNoticeDue } from '../health/block-stalls';
import type { ChainApi, OperatorChannel, Telemetry } from '../ports';

/** The fewest requests a balance rebuilt from its changes takes (its transactions twice, its balance once). */
export const REBUILT_READ_REQUESTS = 3;

/** A cause is kept to this many characters in the book and the notice. */
const MAX_CAUSE_CHARS = 500;

export interface BalancePorts {
  chain: ChainApi;
  telemetry: Telemetry;
  operator?: OperatorChannel;
}

/** The balance reads a run may still make: its share of the request budget, shared by the cycles of one invocation. */
export interface BalanceReadAllowance {
  left: number;
}

/** A read that failed: its rules wait for a later run. */
export interface BalanceReadFailure {
  address: string;
  rules: readonly CompiledBalanceRule[];
  error: unknown;
}

/** One run's balance reads: what it has left to read, and the addresses that failed (not asked again this run). */
export class BalanceReads {
  private readonly failedAddresses = new Set<string>();
  private deferralTold = false;
  /** The most requests one read took this run; null before the first. */
  private requestsPerRead: number | null = null;

  constructor(
    private readonly tracker: BalanceTracker,
    private readonly ports: BalancePorts,
    private readonly allowance: BalanceReadAllowance = { left: Number.POSITIVE_INFINITY },
  ) {}

  /** Reads what is due before `block` and fits the allowance; returns the reads that failed. Never throws for a read. */
  async before(block: Block): Promise<BalanceReadFailure[]> {
    const at = Math.max(0, block.header.height - 1);
    // A rule whose read failed for a lasting cause waits for its next try (balance-retry.ts).
    const due = this.tracker.due(at).filter((rule) => !this.failedAddresses.has(rule.address) && !this.tracker.waitsPast(rule, at));
    if (due.length === 0) return [];
    if (!this.ports.chain.getBalances) throw new Error('balance rules need an API adapter that reads balances (getBalances)');
    const addresses = [...new Set(due.map((rule) => rule.address))];
    // What a read costs is known after one (one request while the v1 route answers, three or more once the
    // balance is rebuilt from its changes): unless all fit at that cost, the run's first read goes alone and
    // the others are sized by it.
    const unsized = this.requestsPerRead === null && addresses.length * REBUILT_READ_REQUESTS > this.allowance.left;
    const first = unsized && addresses.length > 1 ? await this.read(addresses.slice(0, 1), due, at, 1) : null;
    // A first read that failed told nothing: the others are sized as if rebuilt.
    const cost = this.requestsPerRead ?? (first === null ? 1 : REBUILT_READ_REQUESTS);
    const rest = await this.read(first === null ? addresses : addresses.slice(first.read), due, at, cost);
    return [...(first?.failures ?? []), ...rest.failures];
  }

  /** Reads those of `addresses` the allowance pays for, all together, settled together. */
  private async read(
    addresses: readonly string[],
    due: readonly CompiledBalanceRule[],
    at: number,
    cost: number,
  ): Promise<{ read: number; failures: BalanceReadFailure[] }> {
    const reading = addresses.slice(0, Math.max(0, Math.floor(this.allowance.left / cost)));
    this.allowance.left -= reading.length * cost;
    if (reading.length < addresses.length) this.tellDeferred(due, addresses.slice(reading.length), at);
    const assetsOf = (address: string) => [...new Set(due.filter((rule) => rule.address === address).map((rule) => rule.asset))];
    const outcomes = await Promise.allSettled(reading.map((address) => this.ports.chain.getBalances!(address, at, assetsOf(address))));
    const failures: BalanceReadFailure[] = [];
    for (const [index, outcome] of outcomes.entries()) {
      const address = reading[index]!;
      const rules = due.filter((rule) => rule.address === address);
      if (outcome.status === 'rejected') {
        failures.push(await this.failed(address, rules, outcome.reason, at, cost));
        continue;
      }
      const requests = outcome.value.requests ?? 1;
      this.allowance.left -= requests - cost;
      this.requestsPerRead = Math.max(this.requestsPerRead ?? 1, requests);
      await this.apply(rules, outcome.value, at);
    }
    return { read: reading.length, failures };
  }

  private async apply(rules: readonly CompiledBalanceRule[], read: PrincipalBalances, at: number): Promise<void> {
    for (const rule of rules) {
      const differed = this.tracker.reread(rule, read, at);
      if (differed) await mismatch(rule, differed, this.tracker.entry(rule)!, at, this.ports);
    }
  }

  private async failed(address: string, rules: readonly CompiledBalanceRule[], error: unknown, at: number, cost: number): Promise<BalanceReadFailure> {
    const names = rules.map((rule) => `"${rule.meta.rule}"`).join(', ');
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, MAX_CAUSE_CHARS);
    const meanwhile = whileUnread(rules.every((rule) => this.tracker.tracking(rule)));
    let retryAt: number | undefined;
    if (error instanceof ApiBackoffError) {
      // The API asks to wait longer than the run has: no more balance reads this run; the blocks go on.
      this.allowance.left = 0;
    } else {
      this.failedAddresses.add(address);
      // A lasting cause gives the same answer at the same block: the read waits (balance-retry.ts).
      const lasting = error instanceof BalanceUnavailableError ? { at, ...(error.retryFrom === undefined ? {} : { retryFrom: error.retryFrom }) } : undefined;
      if (error instanceof BalanceUnavailableError && error.requests !== undefined) this.allowance.left -= error.requests - cost;
      const unread = rules.map((rule) => this.tracker.readFailed(rule, reason, lasting));
      const failures = Math.max(...unread.map((u) => u.failures));
      retryAt = lasting ? Math.min(...unread.map((u) => u.retryAt!)) : undefined;
      // A lasting cause is told once, at its first try; a passing one from the 3rd run in a row, as the count doubles.
      const tell = lasting ? unread.some((u) => u.tries === 1) : unread.every((u) => u.tries === undefined) && isNoticeDue(failures);
      if (tell) await this.tellUnread(address, names, failures, reason, retryAt, meanwhile);
    }
    const until = retryAt === undefined ? 'until a later run reads it' : `until it is read (tried again at block ${retryAt})`;
    this.ports.telemetry.log(
      'warn',
      `could not read the balance of ${address} at block ${at} (balance rules ${names}): ${reason}; ${meanwhile} ${until}, and the other rules and the blocks go on`,
      {
        address,
        rules: rules.map((rule) => rule.meta.rule),
        height: at,
        ...(retryAt === undefined ? {} : { retryAt }),
      },
    );
    return { address, rules, error };
  }

  /**
   * A read that failed run after run: at the 3rd run in a row, then each time the count doubles (block-stalls.ts);
   * a lasting cause once, with the block of its next try (`retryAt`).
   */
  private async tellUnread(address: string, names: string, failures: number, reason: string, retryAt: number | undefined, meanwhile: string): Promise<void> {
    const tries =
      retryAt === undefined
        ? 'Fix what the cause names (an address the API does not know, a retired route, an API key); each run tries again. ' +
          'This notice repeats each time the count doubles.'
        : `It cannot be read until the cause goes, so it is tried again at block ${retryAt}, then after 10, 20, 40 … blocks (at most ${RETRY_MAX_BLOCKS}), ` +
          'and at once if its rules change in the config. This notice is not repeated for it.';
    await this.ports.operator?.notify({
      kind: 'balance-unread',
      subject: `stacks-watch: the balance of a watched address could not be read (${failures} ${failures === 1 ? 'run' : 'runs'})`,
      message:
        `${failures === 1 ? 'This run' : `The last ${failures} runs`} could not read the balance of ${address} (balance rules ${names}). Until it is read, ` +
        `${meanwhile}; the other rules and the blocks go on.\n\nLatest cause: ${reason}\n\n${tries}`,
    });
  }

  /** Once a run: rules left due because the run's share of reads is spent. */
  private tellDeferred(due: readonly CompiledBalanceRule[], deferred: readonly string[], at: number): void {
    if (this.deferralTold) return;
    this.deferralTold = true;
    const waitingAddresses = new Set(deferred);
    const left = due.filter((rule) => waitingAddresses.has(rule.address));
    const waiting = left.filter((rule) => !this.tracker.tracking(rule)).length;
    this.ports.telemetry.log(
      'warn',
      `${left.length} balance rules due a read at block ${at} wait for a later run: this run's share of the request budget for balance reads is spent ` +
        `(${waiting} of them not started yet: they alert nothing until read; the others keep their kept balance until reconciled)`,
      { waiting, deferred: left.length, height: at },
    );
  }
}

/** What rules whose read failed do meanwhile: a reconciliation's rules go on from the blocks, the others wait. */
function whileUnread(tracking: boolean): string {
  return tracking ? 'these rules keep alerting from the balance kept from the blocks (their reconciliation waits)' : 'these rules alert nothing';
}

/**
 * Every due rule read before `block`, with no limit, a failed read failing the call once all have settled: for
 * `--replay`, where a rule that could not start would give other alerts than the watch did.
 */
export async function readDueBalances(tracker: BalanceTracker, block: Block, ports: BalancePorts): Promise<void> {
  const failures = await new BalanceReads(tracker, ports).before(block);
  if (failures.length > 0) throw failures[0]!.error;
}

async function mismatch(rule: CompiledBalanceRule, kept: BalanceEntry, read: BalanceEntry, at: number, ports: BalancePorts): Promise<void> {
  const what = `${rule.asset} balance of ${rule.address} (rule "${rule.meta.rule}") at block ${at}`;
  const detail = `kept ${kept.balance} (locked ${kept.locked}), the API says ${read.balance} (locked ${read.locked})`;
  ports.telemetry.log('warn', `balance corrected: the ${what}: ${detail}`, { rule: rule.meta.rule, address: rule.address, asset: rule.asset, height: at });
  await ports.operator?.notify({
    kind: 'balance-mismatch',
    subject: `stacks-watch: a tracked balance differed from the API at block ${at}`,
    message:
      `The ${what} was ${detail}. The watcher now uses the API's figure. A difference means a movement the blocks ` +
      'did not show (a miner reward, an unlock at an unexpected height, an API change); if it repeats, look at the address in an explorer.',
  });
}
