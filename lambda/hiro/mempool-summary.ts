// A v3 mempool summary (the v3 list's and a principal's mempool route's items) as the pending rules read it:
// its id and receipt time (where a read stops) and, for a contract call or an STX transfer, the MempoolTx.
import type { MempoolTx } from '../core/mempool/mempool-ports';
import type { ListedTx } from './mempool-list-v1';
import { v3MempoolSummarySchema, type RawMempoolSummary } from './schemas-mempool';

/** A listed item with the principals it names (sender, transfer recipient, called or deployed contract). */
export interface NamedListedTx extends ListedTx {
  names: readonly string[];
}

/** The item, or none when it is not a mempool summary: one odd item costs that item, not the page. */
export function listedV3(entry: unknown): NamedListedTx[] {
  const summary = v3MempoolSummarySchema.safeParse(entry);
  if (!summary.success) return [];
  const raw = summary.data;
  const names = [raw.sender.address, raw.token_transfer?.recipient, raw.contract_call?.contract_id, raw.smart_contract?.contract_id];
  return [
    {
      txId: raw.tx_id.toLowerCase(),
      receivedAt: raw.receipt_time,
      tx: toMempoolTx(raw),
      names: names.filter((name): name is string => name !== undefined),
    },
  ];
}

function toMempoolTx(raw: RawMempoolSummary): MempoolTx | null {
  const common = { txId: raw.tx_id.toLowerCase(), sender: raw.sender.address, nonce: raw.sender.nonce, fee: raw.fee_rate, receivedAt: raw.receipt_time };
  if (raw.type === 'contract_call' && raw.contract_call) {
    return { ...common, type: 'contract_call', contractCall: { contractId: raw.contract_call.contract_id, functionName: raw.contract_call.function_name } };
  }
  if (raw.type === 'token_transfer' && raw.token_transfer) {
    const { recipient, amount, memo } = raw.token_transfer;
    return { ...common, type: 'token_transfer', tokenTransfer: { recipient, amount, memo: memo?.hex ?? null } };
  }
  return null;
}
