// Where the SMS budget keeps what it held back from SMS until the digest for it is sent: a small record of
// its own beside the cursor, written before the held alerts go out, so a crash loses none from the digest.
import type { PendingSmsDigest } from './alert-kinds/sms-digest';

export interface SmsTallyStore {
  /** The tally a run left unsent (it died before its digest went out), or null. */
  readSmsTally(): Promise<PendingSmsDigest | null>;
  /** Replace the tally (null: its digest is sent). Last writer wins: runs do not overlap (the lease). */
  writeSmsTally(tally: PendingSmsDigest | null): Promise<void>;
}
