// The local runner's publisher: alerts on stdout, either for people (each kind's compact terminal block) or
// for programs (exactly one JSON object per line, nothing else, so `npm start --silent -- --json` pipes cleanly).
import type { Writable } from 'node:stream';
import type { PublishOutcome, Publisher } from '../../core/ports';
import type { OutgoingAlert } from '../../core/domain';
import { renderTerminal } from '../../core/render';

export type StdoutFormat = 'human' | 'json';

export function createStdoutPublisher(out: Writable, format: StdoutFormat): Publisher {
  return {
    async publish(alerts: readonly OutgoingAlert[]): Promise<PublishOutcome> {
      const text = alerts.map((a) => (format === 'json' ? JSON.stringify(a.alert) + '\n' : human(a))).join('');
      await new Promise<void>((resolve, reject) => out.write(text, (error) => (error ? reject(error) : resolve())));
      return { failed: [] };
    },
  };
}

/** One terminal block per alert, a blank line between them. */
function human({ alert }: OutgoingAlert): string {
  return `${renderTerminal(alert)}\n`;
}
