// A reorg of a given depth on the fake chain, shaped like real ones: the replaced blocks carried alerts;
// the new chain carries some of those transactions again at other heights, drops others, and has new ones.
import { RETRACTION_GRACE_BLOCKS } from '../../lambda/core/scan/retractions';
import { coinbase, contractCall, transfer, type FakeChain, type FakeTxSpec } from '../support/fake-hiro';
import { alice, vault } from './watched-chain';

interface Placed {
  spec: FakeTxSpec;
  txId: string;
  /** The alert keys the transaction produced. */
  keys: string[];
}

export interface ForkPlan {
  /** Alert keys of transactions the new chain does not carry: each needs a retraction. */
  gone: string[];
  /** Alert keys of transactions the new chain carries at another height: no second alert, no retraction. */
  moved: string[];
  /** Alert keys only the new chain has. */
  fresh: string[];
}

/** Base blocks below the blocks the fork replaces. */
export const BASE_BLOCKS = 5;

/**
 * Mines BASE_BLOCKS plain blocks, then `depth` blocks holding alerts (every block when shallow, about 20
 * spread over the depth when deep). Returns what `fork` needs to replace them.
 */
export function mineForkable(chain: FakeChain, depth: number): Placed[] {
  for (let i = 0; i < BASE_BLOCKS; i++) chain.mine([coinbase()]);
  const every = Math.max(1, Math.floor(depth / 10));
  const placed: Placed[] = [];
  for (let j = 0; j < depth; j++) {
    const specs: FakeTxSpec[] = [coinbase()];
    if (j % every === 0) specs.push(transfer({ to: alice, amount: j + 1 }));
    if (j % every === Math.floor(every / 2)) specs.push(contractCall({ contractId: vault, logs: [`event-${j}`] }));
    const block = chain.mine(specs);
    specs.forEach((spec, index) => {
      if (index === 0) return;
      const txId = block.txs[index]!.txId;
      const keys = spec.txType === 'token_transfer' ? [`token_transfer:${txId}`] : [`contract_log:${txId}:0`];
      placed.push({ spec, txId, keys });
    });
  }
  return placed;
}

/**
 * Replaces the top `depth` blocks with depth + 2 new ones: every third alerted transaction is gone, the
 * others come back one or two blocks higher than before, and two new alerts appear. Then mines enough
 * blocks past the old tip for the watcher to decide on retractions.
 */
export function fork(chain: FakeChain, depth: number, placed: readonly Placed[]): ForkPlan {
  const replacement: FakeTxSpec[][] = Array.from({ length: depth + 2 }, () => [coinbase()]);
  const plan: ForkPlan = { gone: [], moved: [], fresh: [] };
  const oldIndex = new Map<string, number>();
  chain
    .blocks()
    .slice(-depth)
    .forEach((block, j) => block.txs.forEach((tx) => oldIndex.set(tx.txId, j)));
  placed.forEach((tx, i) => {
    if (i % 3 === 0) {
      plan.gone.push(...tx.keys);
      return;
    }
    const newIndex = oldIndex.get(tx.txId)! + 1 + (i % 2);
    replacement[newIndex]!.push({ ...tx.spec, txId: tx.txId });
    plan.moved.push(...tx.keys);
  });
  replacement[0]!.push(transfer({ to: alice, amount: 777 }));
  replacement[depth + 1]!.push(contractCall({ contractId: vault, logs: ['after-the-fork'] }));
  const mined = chain.reorg(depth, replacement);
  plan.fresh.push(`token_transfer:${mined[0]!.txs.at(-1)!.txId}`, `contract_log:${mined[depth + 1]!.txs.at(-1)!.txId}:0`);
  for (let i = 0; i < RETRACTION_GRACE_BLOCKS; i++) chain.mine([coinbase()]);
  return plan;
}
