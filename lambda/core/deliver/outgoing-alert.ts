// What the publisher port (ports.ts) sends: an alert with its human renderings and its SMS route.
import type { Alert } from '../alert-kinds/alert';

/** How SNS routes one published alert to SMS subscribers (sms-budget.ts decides). */
export type SmsRoute = 'text' | 'held' | 'digest';

/** The human renderings of one alert, all derived from the alert itself. */
export interface Rendering {
  /** One line, fewer than 100 characters (an SNS limit). */
  subject: string;
  email: string;
  /** At most 160 GSM-7 characters, or 70 when a character falls outside GSM-7. */
  sms: string;
}

export interface OutgoingAlert {
  alert: Alert;
  rendering: Rendering;
  /** How SNS routes it to SMS subscribers (sms-budget.ts); absent: texted. */
  sms?: SmsRoute;
}
