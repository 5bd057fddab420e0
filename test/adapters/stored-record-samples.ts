// One value of each small named record, and the shapes the stores have always kept them in (a DynamoDB item
// beside the cursor, a member of the state file's document): what a state written by an earlier version holds.
import type { RecordName, StateRecords } from '../../lambda/core/ports';

export const SAMPLE_RECORDS: StateRecords = {
  blockStall: { height: 1200, failures: 3, since: 1_800_000_000_000, cause: 'HTTP 500 from /extended/v2/blocks/1200' },
  smsTally: {
    held: { firstKey: 'contract_call:0xabc:0', counts: { critical: 2, warning: 1, info: 0 }, fromHeight: 1190, toHeight: 1199, throughHeight: 1199 },
    minute: { startedAt: 1_800_000_000_000, texted: 4 },
  },
  balances: {
    base: {
      height: 1100,
      entries: { 'gas|SP1|stx||5000': { balance: '50000000', locked: '0', unlockBurnHeight: null, zone: 'normal', fingerprint: 'SP1|stx|5000', readAt: 1100 } },
    },
    deltas: [
      {
        height: 1150,
        hash: `0x${'1'.repeat(64)}`,
        entries: {
          'gas|SP1|stx||5000': { balance: '4000', locked: '0', unlockBurnHeight: null, zone: 'below', fingerprint: 'SP1|stx|5000', readAt: 1100, stale: true },
        },
      },
    ],
    unread: { 'other|SP2|stx||1': { failures: 2, cause: 'HTTP 400' } },
  },
  mempool: {
    seen: ['0x01', '0x02'],
    newest: 1_700_000_100,
    tracked: [
      {
        txId: '0x01',
        pendingKey: 'pending_call:0x01',
        rule: 'admin',
        severity: 'critical',
        sender: 'SP3',
        nonce: 7,
        contractId: 'SP4.vault',
        what: 'set-owner on SP4.vault',
        seenAt: 1_800_000_000_000,
        nextCheckAt: 1_800_000_060_000,
        checks: 1,
      },
    ],
  },
  chainHealth: {
    version: 1,
    tip: { height: 1201, hash: `0x${'2'.repeat(64)}`, movedAt: 1_800_000_000_000, burnHeight: 900_000, burnMovedAt: 1_799_999_000_000 },
    open: [],
    outbox: [],
  },
  tokenDecimals: { 'SP5.token::tok': { decimals: 8, symbol: 'TOK' }, 'SP6.other::x': { decimals: 0 } },
  sbtcLifecycle: {
    version: 1,
    deposits: {
      [`${'a'.repeat(64)}:0`]: {
        bitcoinTxid: 'a'.repeat(64),
        outputIndex: 0,
        recipient: 'SP7',
        amountSats: '150000',
        clockFrom: 900_001,
        lockTime: 144,
        signersKey: null,
        status: 'accepted',
        replacedBy: null,
        minted: null,
        sent: ['deposit_late:warning'],
        endedAt: null,
      },
    },
    withdrawals: {},
    rotations: [],
    throttle: null,
    untracked: 0,
    emilyProblem: null,
    polled: { listsAt: 900_004, limitsAt: 900_004 },
  },
};

export const SAMPLE_NAMES = Object.keys(SAMPLE_RECORDS) as RecordName[];

const pk = 'NET#mainnet';

/** The DynamoDB items an earlier version wrote for SAMPLE_RECORDS on mainnet, attribute for attribute. */
export const EARLIER_ITEMS: Record<RecordName, Record<string, unknown>> = {
  blockStall: { pk, sk: 'STALL', ...SAMPLE_RECORDS.blockStall },
  smsTally: { pk, sk: 'SMS', held: SAMPLE_RECORDS.smsTally.held, window: SAMPLE_RECORDS.smsTally.minute },
  balances: { pk, sk: 'BALANCES', book: JSON.stringify(SAMPLE_RECORDS.balances) },
  mempool: { pk, sk: 'MEMPOOL', ...SAMPLE_RECORDS.mempool },
  chainHealth: { pk, sk: 'CHAIN_HEALTH', version: 1, state: JSON.stringify(SAMPLE_RECORDS.chainHealth) },
  tokenDecimals: { pk, sk: 'TOKEN_DECIMALS', tokens: SAMPLE_RECORDS.tokenDecimals },
  sbtcLifecycle: { pk, sk: 'SBTC', version: 1, state: JSON.stringify(SAMPLE_RECORDS.sbtcLifecycle) },
};

/** The state file's members an earlier version wrote for SAMPLE_RECORDS: each the record, the SMS minute under `window`. */
export const EARLIER_MEMBERS: Record<RecordName, unknown> = {
  ...SAMPLE_RECORDS,
  smsTally: { held: SAMPLE_RECORDS.smsTally.held, window: SAMPLE_RECORDS.smsTally.minute },
};

/** The SMS record as versions before the loop's minute wrote it: the held tally's fields alone. */
export const BARE_SMS_TALLY = SAMPLE_RECORDS.smsTally.held!;
