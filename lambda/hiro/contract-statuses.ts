// Deployment statuses through `GET /extended/v2/smart-contracts/status`, batched by id.
import type { ContractStatus } from '../core/domain';
import type { HiroHttp } from './http';
import { contractStatusesSchema } from './schemas';

/** Ids per status call: the API has no maximum, but URLs past ~16 KiB get 431. */
export const CONTRACT_STATUS_BATCH = 100;

const CONTRACT_STATUS_ROUTE = 'GET /extended/v2/smart-contracts/status';

export async function readContractStatuses(http: HiroHttp, contractIds: readonly string[]): Promise<Map<string, ContractStatus>> {
  const ids = [...new Set(contractIds)];
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += CONTRACT_STATUS_BATCH) batches.push(ids.slice(i, i + CONTRACT_STATUS_BATCH));
  const answers = await Promise.all(
    batches.map((batch) =>
      http.getBody(
        {
          route: CONTRACT_STATUS_ROUTE,
          path: '/extended/v2/smart-contracts/status',
          // One key per id: the API reads a comma-separated list as one malformed id (400).
          query: batch.map((id) => ['contract_id', id] as const),
        },
        contractStatusesSchema,
      ),
    ),
  );
  const statuses = new Map<string, ContractStatus>();
  for (const [index, batch] of batches.entries()) {
    const body = answers[index]!;
    for (const contractId of batch) {
      const entry = body[contractId];
      // The API answers one key per id it has a deploy for; an id it leaves out is one it knows no
      // deploy of, which is exactly what found:false says (and a dropped deploy reads the same way).
      if (!entry || !entry.found) {
        statuses.set(contractId, { contractId, found: false, status: null, txId: null, blockHeight: null });
      } else {
        statuses.set(contractId, {
          contractId,
          found: true,
          status: entry.result.status,
          txId: entry.result.tx_id,
          blockHeight: entry.result.block_height ?? null,
        });
      }
    }
  }
  return statuses;
}
