// Parallel work awaited together. Promise.all gives up at the first failure while the rest still run: their
// requests go on after the caller has moved on (to report, retry or end the run), and a caller that awaits
// its promises one by one instead leaves every failure after the first unhandled, which ends a plain Node
// process. Here every promise settles first; then the first failure, in the order given, is the error.
type Settled<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

export async function settleAll<T extends readonly unknown[] | []>(work: T): Promise<Settled<T>> {
  const settled: PromiseSettledResult<unknown>[] = await Promise.allSettled(work as readonly unknown[]);
  const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as Settled<T>;
}

/** A settled promise's value, or its failure thrown: where parallel answers are taken one by one, in order. */
export function settledValue<T>(settled: PromiseSettledResult<T>): T {
  if (settled.status === 'rejected') throw settled.reason;
  return settled.value;
}
