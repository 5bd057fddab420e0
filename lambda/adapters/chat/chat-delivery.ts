// What became of one alert in one chat channel, as the local runner keeps it beside the alert's record, so
// that `npm start -- history` shows it per channel and a restart reports what a stopped runner left unposted.
export type ChatDeliveryState = 'queued' | 'retrying' | 'sent' | 'failed';

export interface ChatDelivery {
  state: ChatDeliveryState;
  /** Posts made so far. */
  attempts: number;
  /** When the state was reached, epoch ms. */
  at: number;
  /** Why it failed, or why the last attempt did not take. */
  reason?: string;
}

/** Every channel's delivery of one alert, by channel name. */
export type ChatDeliveries = Record<string, ChatDelivery>;

/** Where the deliveries are kept (the state file; in memory with a DynamoDB state table). */
export interface ChatDeliveryLog {
  record(alertKey: string, channel: string, delivery: ChatDelivery): Promise<void>;
  /** The deliveries a runner left queued or retrying, by alert key. */
  unfinished(): Promise<Array<{ alertKey: string; channel: string; delivery: ChatDelivery }>>;
}

/** A log that keeps nothing past the process: the runner on a DynamoDB state table. */
export function memoryChatLog(): ChatDeliveryLog {
  const kept = new Map<string, ChatDeliveries>();
  return {
    record: async (alertKey, channel, delivery) => void kept.set(alertKey, { ...kept.get(alertKey), [channel]: delivery }),
    unfinished: async () => [],
  };
}
