// Validated v3 bodies into domain types, as ./mappers does for the v1 and v2 ones.
import type { ContractLogEvent, Transaction } from '../core/domain';
import type { RawTransactionSummary, RawV3TransactionEvent } from './schemas-v3';

export function fromTransactionSummary(raw: RawTransactionSummary): Transaction {
  const tx: Transaction = {
    txId: raw.tx_id,
    txIndex: raw.block.tx_index,
    txType: raw.type,
    txStatus: raw.status,
    sender: raw.sender.address,
    // v3 lists carry no event count: the events themselves say.
    eventCount: null,
  };
  if (raw.token_transfer) {
    tx.tokenTransfer = {
      recipient: raw.token_transfer.recipient,
      amount: raw.token_transfer.amount,
      // The same stored bytes v2 returned as a bare hex string; a transfer without one has an empty memo.
      memo: raw.token_transfer.memo?.hex ?? '0x',
    };
  }
  const contractId = raw.contract_call?.contract_id ?? raw.smart_contract?.contract_id;
  if (contractId !== undefined) tx.contractId = contractId;
  if (raw.contract_call) tx.contractCall = { functionName: raw.contract_call.function_name, args: null, resultRepr: null };
  return tx;
}

/** The log of a `contract_log` event; null for every other event type (dropped at the edge). */
export function fromV3Event(raw: RawV3TransactionEvent): ContractLogEvent | null {
  if (raw.type !== 'contract_log' || !raw.contract_log) return null;
  return {
    eventIndex: raw.event_index,
    contractId: raw.contract_log.contract_id,
    topic: raw.contract_log.topic,
    valueHex: raw.contract_log.value.hex,
    valueRepr: raw.contract_log.value.repr,
  };
}
