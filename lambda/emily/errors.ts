// Every way an Emily read can fail, as one typed error whose `kind` says which: the tracker tells the operator
// once what is wrong and carries on; nothing is ever alerted from a failed read.
import { oneLine } from '../hiro/errors';

export type EmilyErrorKind =
  /** No answer: connection refused or reset, DNS. */
  | 'unreachable'
  /** No answer within the request timeout. */
  | 'timeout'
  /** 5xx after every retry. */
  | 'server'
  /** 429 after every retry. */
  | 'rate-limited'
  /** 4xx other than 404 and 429: Emily refused the request. */
  | 'rejected'
  /** The answer was over the body bound. */
  | 'too-large'
  /** The answer was not JSON, or not the shape Emily's spec gives. */
  | 'malformed-answer'
  /** The run's bound on Emily requests is spent. */
  | 'budget'
  /** The run's deadline came first. */
  | 'deadline'
  /** A value given to the client (a txid, a request id) is not one Emily could know. */
  | 'bad-input';

const RETRYABLE: ReadonlySet<EmilyErrorKind> = new Set(['unreachable', 'timeout', 'server', 'rate-limited', 'budget', 'deadline']);

export class EmilyError extends Error {
  override name = 'EmilyError';
  /** Whether the same read may succeed on a later run. */
  readonly retryable: boolean;

  constructor(
    readonly kind: EmilyErrorKind,
    /** The request, e.g. `GET /deposit?status=pending`; the route template before any request was sent. */
    readonly endpoint: string,
    message: string,
    /** The HTTP status of the answer that failed; null when there was none. */
    readonly status: number | null = null,
  ) {
    super(oneLine(`Emily ${endpoint}: ${message}`));
    this.retryable = RETRYABLE.has(kind);
  }
}
