// The rules the packs stand for, matched against prints as the contracts make them: a large deposit minted and
// a rejection alert, a small deposit does not; a pox-5 print naming the stacker alerts, one naming another does not.
import { Cl, cvToString, serializeCV, type ClarityValue } from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { parseWatchConfig } from '../../../lambda/config/watch-config';
import { contractLogKind } from '../../../lambda/core/alert-kinds/contract-log';
import { compileWatchRules } from '../../../lambda/core/rules/rule-lists';
import type { Block, ContractLogEvent, TxEvents } from '../../../lambda/core/domain';

const TX = `0x${'ab'.repeat(32)}`;
const REGISTRY = 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-registry';
const POX_5 = 'SP000000000000000000002Q6VF78.pox-5';
const STACKER = 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR';
const OTHER = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';

const printed = (eventIndex: number, contractId: string, value: ClarityValue): ContractLogEvent => ({
  eventIndex,
  contractId,
  topic: 'print',
  valueHex: `0x${serializeCV(value)}`,
  valueRepr: cvToString(value),
});

function alertsFor(packs: unknown[], logs: ContractLogEvent[]) {
  const parsed = parseWatchConfig({ network: 'mainnet', packs });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const header = { height: 5_000_000, hash: `0x${'cd'.repeat(32)}`, parentHash: `0x${'ef'.repeat(32)}`, time: 1_790_000_000, txCount: 1 };
  const block: Block = {
    header,
    transactions: [{ txId: TX, txIndex: 0, txType: 'contract_call', txStatus: 'success', sender: OTHER, eventCount: logs.length, contractId: REGISTRY }],
  };
  const events = new Map<string, TxEvents>([[TX, { txId: TX, logs, assets: [] }]]);
  return contractLogKind.chain
    .match({ block, events, rules: compileWatchRules(parsed.config), network: 'mainnet' })
    .map((m) => `${m.at.eventIndex} ${m.alert.rule}`);
}

const deposit = (sats: bigint) =>
  Cl.tuple({
    topic: Cl.stringAscii('completed-deposit'),
    'bitcoin-txid': Cl.buffer(new Uint8Array(32).fill(1)),
    'output-index': Cl.uint(0),
    amount: Cl.uint(sats),
    'burn-hash': Cl.buffer(new Uint8Array(32).fill(2)),
    'burn-height': Cl.uint(871_000),
    'sweep-txid': Cl.buffer(new Uint8Array(32).fill(3)),
  });

describe("the packs' rules against real print shapes", () => {
  it('sbtc-bridge alerts a deposit of 1 BTC or more and every rejection, not a smaller deposit', () => {
    const logs = [
      printed(0, REGISTRY, deposit(99_999_999n)),
      printed(1, REGISTRY, deposit(100_000_000n)),
      printed(2, REGISTRY, Cl.tuple({ topic: Cl.stringAscii('withdrawal-reject'), 'request-id': Cl.uint(7), 'signer-bitmap': Cl.uint(0) })),
    ];
    expect(alertsFor([{ name: 'sbtc-bridge' }], logs)).toEqual(['1 sbtc-bridge: large deposit minted', '2 sbtc-bridge: withdrawal rejected']);
  });

  it('pox-5-staking alerts a pox-5 print naming the stacker, whatever its topic, and not one naming another', () => {
    const logs = [
      printed(0, POX_5, Cl.ok(Cl.tuple({ name: Cl.stringAscii('stake'), stacker: Cl.standardPrincipal(STACKER), 'amount-ustx': Cl.uint(1_000_000_000n) }))),
      printed(1, POX_5, Cl.ok(Cl.tuple({ name: Cl.stringAscii('stake'), stacker: Cl.standardPrincipal(OTHER) }))),
    ];
    expect(alertsFor([{ name: 'pox-5-staking', stackers: [STACKER] }], logs)).toEqual([`0 pox-5-staking: ${STACKER}`]);
  });
});
