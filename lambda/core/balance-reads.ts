// The API reads of the balance rules, before a block is applied: at the block before it, one request per
// address whatever its rules, only for the rules balance-tracker.ts says are due (a first check, a gap, a
// reconciliation). A reconciliation that finds the kept balance wrong corrects it, logs it and tells the
// operator once.
import type { Block, PrincipalBalances } from './domain';
import type { BalanceTracker, CompiledBalanceRule } from './balance-tracker';
import type { BalanceEntry } from './balance-book';
import type { ChainApi, OperatorChannel, Telemetry } from './ports';

export interface BalancePorts {
  chain: ChainApi;
  telemetry: Telemetry;
  operator?: OperatorChannel;
}

export async function readDueBalances(tracker: BalanceTracker, block: Block, ports: BalancePorts): Promise<void> {
  const at = Math.max(0, block.header.height - 1);
  const due = tracker.due(at);
  if (due.length === 0) return;
  const { chain } = ports;
  if (!chain.getBalances) throw new Error('balance rules need an API adapter that reads balances (getBalances)');
  const reads = new Map<string, Promise<PrincipalBalances>>();
  for (const rule of due) if (!reads.has(rule.address)) reads.set(rule.address, chain.getBalances(rule.address, at));
  for (const rule of due) {
    const read = await reads.get(rule.address)!;
    const differed = tracker.reread(rule, read, at);
    if (differed) await mismatch(rule, differed, tracker.entry(rule)!, at, ports);
  }
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
