// Which waiting transactions the pending rules match (mempool/pending-rules.ts): a `calls` rule's filters
// apply to a call waiting in the mempool as they do to a mined one, save its outcome.
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../lambda/config/watch-config';
import { compileWatchRules } from '../../lambda/core/rules/rule-lists';
import { matchPending, pendingRules } from '../../lambda/core/mempool/pending-rules';
import type { MempoolTx } from '../../lambda/core/mempool/mempool-ports';
import { OTHER, ROUTER, WATCHED } from './harness';

const OWNER = 'SP000000000000000000002Q6VF78';

function rulesOf(calls: unknown[]) {
  const parsed = parseWatchConfig({ network: 'mainnet', calls });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const rules = pendingRules(compileWatchRules(parsed.config));
  if (rules === null) throw new Error('no pending rule');
  return rules;
}

const waitingCall = (sender: string, functionName = 'set-owner'): MempoolTx => ({
  txId: `0x${'ab'.repeat(32)}`,
  type: 'contract_call',
  sender,
  nonce: 7,
  fee: '3000',
  receivedAt: 1_750_000_000,
  contractCall: { contractId: ROUTER, functionName },
});

describe('a pending calls rule', () => {
  it('matches a waiting call only from the senders its `from` lists', () => {
    const rules = rulesOf([{ contractId: ROUTER, functions: ['set-owner'], from: [WATCHED, OWNER], name: 'Owner change', pending: true }]);
    expect(matchPending(waitingCall(WATCHED), rules)).toMatchObject({ kind: 'call', meta: { rule: 'Owner change' } });
    expect(matchPending(waitingCall(OWNER), rules)).toMatchObject({ kind: 'call' });
    expect(matchPending(waitingCall(OTHER), rules)).toBeNull();
  });

  it('matches a waiting call from any sender when its `from` is left out, and only its functions', () => {
    const rules = rulesOf([{ contractId: ROUTER, functions: ['set-owner'], pending: true }]);
    expect(matchPending(waitingCall(OTHER), rules)).toMatchObject({ kind: 'call' });
    expect(matchPending(waitingCall(OTHER, 'deposit'), rules)).toBeNull();
  });
});
