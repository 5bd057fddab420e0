import { describe, expect, it } from 'vitest';
import { render, renderEmail } from '../../lambda/core/render';
import { ALEX, ARKADIKO, BLOCK_HASH, contractLog, contractStatus, deepReorg, everyAlert, MEMO_GM, retraction, transfer, TX_ID } from './alerts';

/** The value of a `Label:   value` line. */
function field(email: string, label: string): string | undefined {
  const line = email.split('\n').find((l) => l.startsWith(`${label}:`));
  return line?.slice(label.length + 1).trim();
}

describe('the transfer email', () => {
  const email = renderEmail(transfer());

  it('gives the amount in STX and the exact micro-STX', () => {
    expect(field(email, 'Amount')).toBe('1,250.500000 STX (1250500000 micro-STX)');
  });

  it('gives the amount exactly beyond 2^53', () => {
    const big = renderEmail(transfer({ amount: '123456789012345678901234' }));
    expect(field(big, 'Amount')).toBe('123,456,789,012,345,678.901234 STX (123456789012345678901234 micro-STX)');
  });

  it('gives both addresses in full', () => {
    expect(field(email, 'To')).toBe(ARKADIKO);
    expect(field(email, 'From')).toBe(ALEX);
  });

  it('gives the block height, hash and time in UTC', () => {
    expect(field(email, 'Block')).toBe(`182,345 (hash ${BLOCK_HASH})`);
    expect(field(email, 'Block time')).toBe('2024-05-01T12:00:00Z');
  });

  it('links the transaction on the explorer of its network', () => {
    expect(field(email, 'Explorer')).toBe(`https://explorer.hiro.so/txid/${TX_ID}?chain=mainnet`);
    expect(field(renderEmail(transfer({ network: 'testnet' })), 'Explorer')).toBe(`https://explorer.hiro.so/txid/${TX_ID}?chain=testnet`);
  });

  it('shows a printable memo as text', () => {
    expect(field(renderEmail(transfer({ memo: MEMO_GM })), 'Memo')).toBe('"gm"');
  });

  it('shows a binary memo as hex and says why', () => {
    expect(field(renderEmail(transfer({ memo: `0x01ff${'00'.repeat(32)}` })), 'Memo')).toBe('0x01ff (not printable text, shown as hex)');
  });

  it('says when there is no memo', () => {
    expect(field(email, 'Memo')).toBe('none');
  });
});

describe('the log email', () => {
  it('gives the contract in full, the topic, the event index and the value', () => {
    const email = renderEmail(contractLog());
    expect(field(email, 'Contract')).toBe(`${ARKADIKO}.arkadiko-token`);
    expect(field(email, 'Topic')).toBe('print');
    expect(field(email, 'Event index')).toBe('3');
    expect(email).toContain('Value (Clarity):\n(tuple (action "mint") (amount u1000000))\n');
  });

  it('caps a 100 KB value at 2,000 characters and says it was cut', () => {
    const email = renderEmail(contractLog({ value_repr: 'x'.repeat(100_000) }));
    expect(email).toContain(`${'x'.repeat(1_999)}…\n[cut: the first 2,000 of 100,000 characters are shown;`);
    expect(email.length).toBeLessThan(4_000);
  });

  it('shows HTML in a value as plain characters, not escaped', () => {
    const email = renderEmail(contractLog({ value_repr: '"<a href=\\"https://evil\\">claim</a><script>x()</script>"' }));
    expect(email).toContain('<a href=\\"https://evil\\">claim</a><script>x()</script>');
    expect(email).not.toContain('&lt;');
    expect(email).toContain('This email is plain text');
  });

  it('strips control characters and bidi overrides from chain text', () => {
    const email = renderEmail(contractLog({ topic: 'pr\u202Eint', value_repr: 'a\u0000b\r\nFrom: x\u2066c' }));
    expect(field(email, 'Topic')).toBe('print');
    expect(email).toContain('Value (Clarity):\nab From: xc\n');
  });

  it('keeps emoji', () => {
    expect(renderEmail(contractLog({ value_repr: '"gm 🚀"' }))).toContain('"gm 🚀"');
  });
});

describe('the contract status email', () => {
  it('gives the status before and after', () => {
    expect(field(renderEmail(contractStatus()), 'Status')).toBe('deploy pending -> deployed: success');
  });

  it('gives the status alone on the first check', () => {
    const email = renderEmail(contractStatus({ previous: null }));
    expect(email).toMatch(/^First check/);
    expect(field(email, 'Status')).toBe('deployed: success');
  });

  it('says a pending deploy is not mined yet', () => {
    const email = renderEmail(contractStatus({ status: 'pending', block_height: null, previous: null }));
    expect(field(email, 'Block')).toBe('not mined yet');
  });

  it('explains a contract the API does not know', () => {
    const email = renderEmail(contractStatus({ found: false, status: null, tx_id: null, block_height: null, previous: null }));
    expect(field(email, 'Status')).toBe('not found');
    expect(email).toContain('Check the id in the watch config');
    expect(email).not.toContain('Explorer:');
  });

  it('explains a deploy that disappeared', () => {
    const email = renderEmail(contractStatus({ found: false, status: null, tx_id: null, block_height: null }));
    expect(field(email, 'Status')).toBe('deploy pending -> no longer found');
    expect(email).toContain('dropped from the mempool');
  });
});

describe('the retraction email', () => {
  const email = renderEmail(retraction());

  it('says the earlier alert is void because a reorg replaced its block', () => {
    expect(email).toMatch(/^RETRACTED: an earlier stacks-watch alert is void\./);
    expect(email).toContain('replaced by a chain reorganization');
  });

  it('names the earlier alert by its key and repeats what it said', () => {
    expect(field(email, 'Earlier alert')).toBe(`token_transfer:${TX_ID}:0`);
    expect(field(email, 'It said')).toBe(`1250500000 micro-STX from ${ALEX} to ${ARKADIKO}`);
    expect(field(email, 'Replaced block')).toBe(`182,345 (hash ${BLOCK_HASH})`);
  });
});

describe('the deep reorg email', () => {
  const email = renderEmail(deepReorg());

  it('says the watcher cannot verify blocks deeper than its window', () => {
    expect(email).toContain('It cannot verify blocks deeper than the window');
    expect(email).toContain('(heights 182,218 to 182,345)');
  });

  it('tells the operator what to do', () => {
    expect(email).toContain('What to do:');
    expect(email).toContain('Check the alerts you received for blocks below height 182,218');
    expect(email).toContain('raise "confirmations"');
  });
});

describe('every email', () => {
  it('ends with the alert key', () => {
    for (const alert of everyAlert()) expect(renderEmail(alert)).toContain(`stacks-watch alert ${alert.key}\n`);
  });

  it('is the same text for the same alert, so a retry sends the same email', () => {
    for (const alert of everyAlert()) expect(render(alert)).toEqual(render(structuredClone(alert)));
  });

  it('contains no control characters other than line breaks', () => {
    const hostile = contractLog({ topic: '\u0007\u001b[31m', value_repr: '\u0000\u009b\u202E', contract_id: `${ARKADIKO}.x\r\ny` });
    for (const alert of [...everyAlert(), hostile]) {
      expect(renderEmail(alert)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
  });
});
