// A first sweep of many watched contracts sends one summary a cycle, not an alert per contract; from then on
// each change alerts on its own, and a contract or two added later still alert on their own.
import { describe, expect, it } from 'vitest';
import { FIRST_SIGHTS_ALONE_MAX } from '../../lambda/core/match/contract-status-sweep';
import { contractStatusSummaryKind, NOT_FOUND_LISTED } from '../../lambda/core/alert-kinds/contract-status-summary';
import type { ContractStatusSummaryAlert } from '../../lambda/core/alert-kinds/alert';
import { render, renderTerminal } from '../../lambda/core/render';
import { MemoryChain } from '../support/memory-chain';
import { config, harness } from './harness';

const MINUTE = 60_000;
const ids = (count: number, prefix = 'c') => Array.from({ length: count }, (_, i) => `SP000000000000000000002Q6VF78.${prefix}-${i}`);

/** A chain where every even contract is deployed and every odd one unknown to the API. */
function chainWith(contracts: readonly string[]) {
  const chain = new MemoryChain(100, 1);
  contracts.forEach((contractId, i) => {
    if (i % 2 === 0) chain.statuses.set(contractId, { contractId, found: true, status: 'success', txId: `0x${i}`, blockHeight: 1 });
  });
  return chain;
}

const summaries = (h: ReturnType<typeof harness>) => h.publisher.ofType('contract_status_summary').map((a) => a.alert as ContractStatusSummaryAlert);

describe('the first sweep of many contracts', () => {
  it('sends one summary of 10,000 first sights instead of 10,000 alerts, with their statuses and the ids not found', async () => {
    const contracts = ids(10_000);
    const h = harness(chainWith(contracts), config({ contracts, addresses: [], contractLogs: [] }));
    await h.run();

    expect(h.publisher.ofType('contract_status')).toEqual([]);
    const [summary, ...more] = summaries(h);
    expect(more).toEqual([]);
    expect(summary).toMatchObject({
      type: 'contract_status_summary',
      contracts: 10_000,
      statuses: { success: 5_000, not_found: 5_000 },
      rule: 'contracts',
      severity: 'warning',
    });
    expect(summary!.not_found).toEqual(contracts.filter((_, i) => i % 2 === 1).slice(0, NOT_FOUND_LISTED));
  });

  it('then alerts each change on its own, and stores every contract it summed up', async () => {
    const contracts = ids(50);
    const chain = chainWith(contracts);
    const h = harness(chain, config({ contracts, addresses: [], contractLogs: [] }));
    await h.run();
    expect((await h.state.readContractStatuses(contracts)).size).toBe(50);

    chain.statuses.set(contracts[1]!, { contractId: contracts[1]!, found: true, status: 'pending', txId: '0xbeef', blockHeight: null });
    await h.run();
    expect(summaries(h)).toHaveLength(1);
    expect(h.publisher.ofType('contract_status').map((a) => a.alert)).toEqual([
      expect.objectContaining({ contract_id: contracts[1], status: 'pending', previous: { found: false, status: null } }),
    ]);
  });

  it("sums up each cycle's slice when the watch list is swept over several cycles", async () => {
    const contracts = ids(1_000);
    const h = harness(chainWith(contracts), config({ contracts, addresses: [], contractLogs: [] }));
    const sweep = { contractsPerCycle: 400, cycleMs: MINUTE };
    for (let cycle = 0; cycle < 3; cycle++) {
      await h.run({ statusSweep: sweep });
      h.advance(MINUTE);
    }
    expect(h.publisher.ofType('contract_status')).toEqual([]);
    const counted = summaries(h).reduce((sum, s) => sum + s.contracts, 0);
    expect(summaries(h)).toHaveLength(3);
    expect(counted).toBe(1_000);
  });

  it('lets a few contracts added to the config alert on their own', async () => {
    const contracts = ids(FIRST_SIGHTS_ALONE_MAX);
    const h = harness(chainWith(contracts), config({ contracts, addresses: [], contractLogs: [] }));
    await h.run();
    expect(summaries(h)).toEqual([]);
    expect(h.publisher.ofType('contract_status')).toHaveLength(FIRST_SIGHTS_ALONE_MAX);
  });

  it('is sent once when the run fails after publishing it, before the statuses were stored', async () => {
    const contracts = ids(20);
    const h = harness(chainWith(contracts), config({ contracts, addresses: [], contractLogs: [] }));
    const writeStatus = h.state.writeContractStatus.bind(h.state);
    let failing = true;
    h.state.writeContractStatus = async (status) => {
      if (failing) throw new Error('the disk is full');
      return writeStatus(status);
    };
    await expect(h.run()).rejects.toThrow(/the disk is full/);
    failing = false;
    await h.run();
    expect(summaries(h)).toHaveLength(1);
    expect(h.publisher.ofType('contract_status')).toEqual([]);
  });
});

describe('the summary in words', () => {
  const sample = contractStatusSummaryKind.sample;

  it('counts each status in the subject, the SMS and the terminal, most common first', () => {
    const { subject, sms } = render(sample);
    expect(subject).toBe('[stacks-watch] first check of 2,500 contracts: 2,497 deployed, 2 not found, 1 deploy pending');
    expect(sms).toContain('first check of 2,500 contracts');
    expect(renderTerminal(sample)).toContain('2,500 checked for the first time');
  });

  it('lists the contracts not found in the email, to check for typos', () => {
    const { email } = render(sample);
    expect(email).toContain("from now on, each change of a contract's status alerts on its own");
    for (const contractId of sample.not_found) expect(email).toContain(`  ${contractId}`);
  });
});
