// The kinds the watcher raises itself: retractions (of any chain kind), status changes and deep reorgs.
import { describe, expect, it } from 'vitest';
import { contractLogKind } from '../../../lambda/core/alert-kinds/contract-log';
import { contractStatusKind } from '../../../lambda/core/alert-kinds/contract-status';
import { deepReorgKind } from '../../../lambda/core/alert-kinds/deep-reorg';
import { filterAttributes } from '../../../lambda/core/alert-kinds/registry';
import { retractionKind, retractionOf } from '../../../lambda/core/alert-kinds/retraction';
import { tokenTransferKind } from '../../../lambda/core/alert-kinds/token-transfer';
import { renderTerminal } from '../../../lambda/core/render';

describe('retraction kind', () => {
  it("retracts a transfer in the JSON the docs show, in the transfer's own unit, carrying the recipient", () => {
    const transfer = tokenTransferKind.sample;
    expect(retractionOf(transfer, 'mainnet')).toEqual({
      type: 'retraction',
      key: `retraction:${transfer.key}:${transfer.block_hash}`,
      network: 'mainnet',
      retracts: transfer.key,
      retracted_type: 'token_transfer',
      tx_id: transfer.tx_id,
      block_height: transfer.block_height,
      block_hash: transfer.block_hash,
      summary: `1,250.5 STX from ${transfer.sender} to ${transfer.recipient}`,
      recipient: transfer.recipient,
      rule: 'addresses',
      severity: 'warning',
    });
  });

  it('retracts a log with the JSON it always had, carrying the contract', () => {
    const log = contractLogKind.sample;
    const retraction = retractionOf(log, 'mainnet');
    expect(retraction).toEqual({
      type: 'retraction',
      key: `retraction:${log.key}:${log.block_hash}`,
      network: 'mainnet',
      retracts: log.key,
      retracted_type: 'contract_log',
      tx_id: log.tx_id,
      block_height: log.block_height,
      block_hash: log.block_hash,
      summary: `print event #3 from ${log.contract_id}`,
      contract_id: log.contract_id,
      rule: log.rule,
      severity: 'warning',
    });
    expect(filterAttributes(retraction)).toEqual({
      type: 'retraction',
      network: 'mainnet',
      rule: log.rule,
      severity: 'warning',
      contract_id: log.contract_id,
    });
  });

  it('reads at a terminal as what it voids and what that said', () => {
    expect(renderTerminal(retractionKind.sample).split('\n').slice(0, 4)).toEqual([
      'WARNING  RETRACTED: STX transfer tx 0x20de...f0eb in block 182,345 (reorg)',
      `  Voids:          ${retractionKind.sample.retracts}`,
      `  It said:        ${retractionKind.sample.summary}`,
      `  Replaced block: 182,345 (hash ${retractionKind.sample.block_hash})`,
    ]);
  });
});

describe('contract_status kind', () => {
  it('is keyed by contract and change count, and filtered on the contract', () => {
    expect(contractStatusKind.key('SP1.c', 3)).toBe('contract_status:SP1.c:3');
    const { sample } = contractStatusKind;
    expect(filterAttributes(sample)).toEqual({
      type: 'contract_status',
      network: 'mainnet',
      rule: 'contracts',
      severity: 'warning',
      contract_id: sample.contract_id,
    });
  });

  it('reads at a terminal as the contract, the change and the block; no link without a deploy tx', () => {
    const { sample } = contractStatusKind;
    expect(renderTerminal(sample).split('\n').slice(1, 4)).toEqual([
      `  Contract: ${sample.contract_id}`,
      '  Status:   deploy pending -> deployed: success',
      '  Block:    111,021',
    ]);
    const notFound = renderTerminal({ ...sample, found: false, status: null, tx_id: null, block_height: null, previous: null });
    expect(notFound).not.toContain('https://');
    expect(notFound).toContain('  Status:   not found');
  });
});

describe('deep_reorg kind', () => {
  it('has no filter attribute beyond the common ones, is critical, and has no link', () => {
    expect(filterAttributes(deepReorgKind.sample)).toEqual({ type: 'deep_reorg', network: 'mainnet', rule: 'watcher:deep_reorg', severity: 'critical' });
    expect(renderTerminal(deepReorgKind.sample)).not.toContain('https://');
    expect(renderTerminal(deepReorgKind.sample)).toContain('  Unverified: alerts for blocks below 181,346');
  });
});
