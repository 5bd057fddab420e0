// A Publisher that records what it was given and can be told to fail, for core tests. Like SNS it publishes
// in calls of at most `callSize` alerts, one after another, reporting each call's accepted alerts before the
// next call starts.
import type { OutgoingAlert } from '../../lambda/core/deliver/outgoing-alert';
import type { OnAccepted, PublishOutcome, Publisher } from '../../lambda/core/ports';

export class RecordingPublisher implements Publisher {
  readonly sent: OutgoingAlert[] = [];
  /** Keys to reject on the next publish calls (removed once rejected, unless `persistent`). */
  failKeys = new Set<string>();
  persistent = false;
  /** Keys the channel will never take (an invalid message): reported undeliverable every time. */
  refuseKeys = new Set<string>();
  refuseWhen: ((alert: OutgoingAlert) => boolean) | null = null;
  throwNext: Error | null = null;
  /** Publish calls made, each with the keys it carried. */
  readonly calls: string[][] = [];

  constructor(readonly callSize = 10) {}

  async publish(alerts: readonly OutgoingAlert[], onAccepted?: OnAccepted): Promise<PublishOutcome> {
    if (this.throwNext) {
      const error = this.throwNext;
      this.throwNext = null;
      throw error;
    }
    const outcome: PublishOutcome = { failed: [], undeliverable: [] };
    for (let start = 0; start < alerts.length; start += this.callSize) {
      const call = alerts.slice(start, start + this.callSize);
      this.calls.push(call.map((a) => a.alert.key));
      const accepted: string[] = [];
      for (const a of call) {
        const key = a.alert.key;
        if (this.refuseKeys.has(key) || this.refuseWhen?.(a)) outcome.undeliverable.push({ key, reason: 'injected refusal (InvalidParameter)' });
        else if (this.failKeys.has(key)) {
          outcome.failed.push({ key, reason: 'injected failure' });
          if (!this.persistent) this.failKeys.delete(key);
        } else {
          this.sent.push(a);
          accepted.push(key);
        }
      }
      if (accepted.length > 0) await onAccepted?.(accepted);
    }
    return outcome;
  }

  keys(): string[] {
    return this.sent.map((a) => a.alert.key);
  }

  ofType(type: string): OutgoingAlert[] {
    return this.sent.filter((a) => a.alert.type === type);
  }
}
