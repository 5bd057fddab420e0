// The API asked the watcher to wait (a Retry-After, a rate-limit reset, a backoff) longer than the run has
// left. Sleeping would run past the run's deadline, or past the Lambda's timeout, which kills the run
// mid-block with its claims left behind. Instead the run ends at once, cleanly: what it finished is saved,
// and the next run resumes from there after the wait has passed.
export class ApiBackoffError extends Error {
  override name = 'ApiBackoffError';
  constructor(
    /** How long the API asked to wait, in ms. */
    readonly waitMs: number,
    /** How long the run had left when asked, in ms. */
    readonly timeLeftMs: number,
  ) {
    super(
      `the API asked to wait ${Math.ceil(waitMs / 1000)} s, more than the ${Math.max(0, Math.floor(timeLeftMs / 1000))} s this run has left: ` +
        'the run ends here with its finished blocks saved, and the next run resumes',
    );
  }
}
