// A Publisher that records what it was given and can be told to fail, for core tests.
import type { OutgoingAlert } from '../../lambda/core/domain';
import type { PublishOutcome, Publisher } from '../../lambda/core/ports';

export class RecordingPublisher implements Publisher {
  readonly sent: OutgoingAlert[] = [];
  /** Keys to reject on the next publish calls (removed once rejected, unless `persistent`). */
  failKeys = new Set<string>();
  persistent = false;
  throwNext: Error | null = null;

  async publish(alerts: readonly OutgoingAlert[]): Promise<PublishOutcome> {
    if (this.throwNext) {
      const error = this.throwNext;
      this.throwNext = null;
      throw error;
    }
    const failed: PublishOutcome['failed'] = [];
    for (const a of alerts) {
      if (this.failKeys.has(a.alert.key)) {
        failed.push({ key: a.alert.key, reason: 'injected failure' });
        if (!this.persistent) this.failKeys.delete(a.alert.key);
      } else this.sent.push(a);
    }
    return { failed };
  }

  keys(): string[] {
    return this.sent.map((a) => a.alert.key);
  }

  ofType(type: string): OutgoingAlert[] {
    return this.sent.filter((a) => a.alert.type === type);
  }
}
