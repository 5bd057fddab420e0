// The local runner's publisher: alerts on stdout, either for people (each kind's compact terminal block) or
// for programs (exactly one JSON object per line, nothing else, so `npm start --silent -- --json` pipes cleanly).
import type { Writable } from 'node:stream';
import type { OnAccepted, PublishOutcome, Publisher } from '../../core/ports';
import type { OutgoingAlert } from '../../core/deliver/outgoing-alert';
import { renderTerminal } from '../../core/render';
import { alertJson } from '../../core/render/alert-json';
import { sha256Hex } from '../sha256';

export type StdoutFormat = 'human' | 'json';

export function createStdoutPublisher(out: Writable, format: StdoutFormat): Publisher {
  return {
    // One write per alert, each reported before the next: a killed runner prints at most one alert twice.
    async publish(alerts: readonly OutgoingAlert[], onAccepted?: OnAccepted): Promise<PublishOutcome> {
      for (const a of alerts) {
        const text = format === 'json' ? alertJson(a.alert, sha256Hex) + '\n' : human(a);
        await new Promise<void>((resolve, reject) => out.write(text, (error) => (error ? reject(error) : resolve())));
        await onAccepted?.([a.alert.key]);
      }
      return { failed: [], undeliverable: [] };
    },
  };
}

/** One terminal block per alert, a blank line between them. */
function human({ alert }: OutgoingAlert): string {
  return `${renderTerminal(alert)}\n`;
}
