// `GET /extended/v1/address/{principal}/balances?until_block=H`, answered from the scripted chain: the genesis
// balances (FakeChain.setGenesisBalance) plus every canonical block up to H: fees (the sponsor's, else the
// sender's), STX and token events of successful transactions, and stacking locks until their Bitcoin height.
import type { FakeChain } from './chain';

interface Held {
  stx: bigint;
  locked: bigint;
  unlockHeight: number | null;
  fts: Map<string, bigint>;
}

type Asset = { asset_event_type: string; sender?: string; recipient?: string; amount?: string; asset_id?: string };

function move(held: Held, asset: string, delta: bigint): void {
  if (asset === 'stx') held.stx += delta;
  else held.fts.set(asset, (held.fts.get(asset) ?? 0n) + delta);
}

export function balancesAt(chain: FakeChain, principal: string, height: number): Held {
  const genesis = chain.genesis.get(principal);
  const held: Held = { stx: genesis?.get('stx') ?? 0n, locked: 0n, unlockHeight: null, fts: new Map([...(genesis ?? [])].filter(([a]) => a !== 'stx')) };
  for (const block of chain.blocks()) {
    if (block.height > height) break;
    if (held.unlockHeight !== null && block.burnBlockHeight >= held.unlockHeight) {
      held.locked = 0n;
      held.unlockHeight = null;
    }
    for (const tx of block.txs) {
      if ((tx.sponsor ?? tx.sender) === principal) held.stx -= BigInt(tx.feeRate);
      if (tx.txStatus !== 'success') continue;
      for (const event of tx.events) {
        if (event.event_type === 'stx_lock') {
          const lock = event.stx_lock_event as { locked_amount: string; unlock_height: number; locked_address: string };
          if (lock.locked_address === principal) [held.locked, held.unlockHeight] = [BigInt(lock.locked_amount), lock.unlock_height];
          continue;
        }
        if (event.event_type !== 'stx_asset' && event.event_type !== 'fungible_token_asset') continue;
        const asset = event.asset as Asset;
        const id = event.event_type === 'stx_asset' ? 'stx' : asset.asset_id!;
        if (asset.sender === principal) move(held, id, -BigInt(asset.amount!));
        if (asset.recipient === principal) move(held, id, BigInt(asset.amount!));
      }
    }
  }
  return held;
}

export function renderBalances(held: Held): Record<string, unknown> {
  return {
    stx: {
      balance: String(held.stx),
      total_sent: '0',
      total_received: '0',
      total_fees_sent: '0',
      total_miner_rewards_received: '0',
      lock_tx_id: '',
      locked: String(held.locked),
      lock_height: 0,
      burnchain_lock_height: 0,
      burnchain_unlock_height: held.unlockHeight ?? 0,
    },
    fungible_tokens: Object.fromEntries([...held.fts].map(([id, balance]) => [id, { balance: String(balance), total_sent: '0', total_received: '0' }])),
    non_fungible_tokens: {},
  };
}

/** Stacks event: `address` has `amount` micro-STX locked until Bitcoin height `unlockHeight`. */
export function stxLockEvent(address: string, amount: bigint | number | string, unlockHeight: number) {
  return { event_type: 'stx_lock', stx_lock_event: { locked_amount: String(amount), unlock_height: unlockHeight, locked_address: address } };
}
