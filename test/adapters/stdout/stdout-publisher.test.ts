// The local runner's stdout: a compact block per alert for people, one JSON object per line for programs.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../lambda/core/alert-kinds/alert';
import type { OutgoingAlert } from '../../../lambda/core/deliver/outgoing-alert';
import { createStdoutPublisher } from '../../../lambda/adapters/stdout/stdout-publisher';
import { contractLogKind } from '../../../lambda/core/alert-kinds/contract-log';
import { tokenTransferKind } from '../../../lambda/core/alert-kinds/token-transfer';
import { render } from '../../../lambda/core/render';

function capture() {
  let text = '';
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { out, text: () => text };
}

const outgoing = (alert: Alert): OutgoingAlert => ({ alert, rendering: render(alert) });
const alerts = [outgoing(tokenTransferKind.sample), outgoing(contractLogKind.sample)];

describe('stdout publisher', () => {
  it('prints each alert for people as its terminal block, a blank line after each, without the email footer', async () => {
    const { out, text } = capture();
    const outcome = await createStdoutPublisher(out, 'human').publish(alerts);
    expect(outcome).toEqual({ failed: [], undeliverable: [] });
    const blocks = text().split('\n\n');
    expect(blocks).toHaveLength(3); // two blocks and what follows the last blank line
    expect(blocks[0]!.split('\n')[0]).toBe('WARNING  1,250.5 STX to SP2C...YZR (block 182,345)');
    expect(blocks[0]).toContain('\n  Amount: 1,250.5 STX\n');
    expect(blocks[1]!.split('\n')[0]).toBe('WARNING  print from arkadiko-token (block 182,345)');
    expect(blocks[1]).toMatch(/\n {2}https:\/\/explorer\.hiro\.so\/txid\/0x20de\S+\?chain=mainnet$/);
    expect(text()).not.toContain('This email is plain text');
    expect(text()).not.toContain('stacks-watch alert ');
  });

  it('prints each alert for programs as exactly one JSON object per line, nothing else', async () => {
    const { out, text } = capture();
    await createStdoutPublisher(out, 'json').publish(alerts);
    expect(text()).toBe(`${JSON.stringify(tokenTransferKind.sample)}\n${JSON.stringify(contractLogKind.sample)}\n`);
  });
});
