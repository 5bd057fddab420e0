// Alert keys are the de-duplication identity of an alert across runs, retries and rescans. Chain alerts are
// keyed by the transaction (and event), not by block: a transaction re-mined at another height after a
// reorg is the same event, and its owner has already been told.

export const alertKeys = {
  tokenTransfer: (txId: string) => `token_transfer:${txId}`,
  contractLog: (txId: string, eventIndex: number) => `contract_log:${txId}:${eventIndex}`,
  /** `change` counts the contract's status alerts, so A → B → A alerts three times. */
  contractStatus: (contractId: string, change: number) => `contract_status:${contractId}:${change}`,
  /** One retraction per retracted alert and orphaned block. */
  retraction: (retractedKey: string, orphanedBlockHash: string) => `retraction:${retractedKey}:${orphanedBlockHash}`,
  deepReorg: (cursorHash: string, tipHash: string) => `deep_reorg:${cursorHash}:${tipHash}`,
};
