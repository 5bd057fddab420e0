// Public AWS list prices used for the monthly estimates, us-east-1, on-demand, without the free tier.
// Read from aws.amazon.com pricing pages and their public summaries on 2026-11-22; check them again before
// relying on the totals.

export const PRICES = {
  region: 'us-east-1',
  readOn: '2026-11-22',
  /** Lambda, arm64, first tier. */
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  /** DynamoDB on-demand (since the November 2024 price cut). */
  dynamoWriteUnit: 0.625 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
  /** SNS standard topic: each published message up to 64 KB, batched or not. */
  snsPublish: 0.5 / 1e6,
  snsEmailDelivery: 2 / 100_000,
  /** SMS varies by country; a US message is about this much. */
  snsSmsUs: 0.00581,
  /** CloudWatch custom metric (EMF), per metric per month, prorated by the hour. */
  cloudWatchMetric: 0.3,
  cloudWatchLogsGb: 0.5,
} as const;

/** Scheduled runs a month at a 1-minute schedule (30 days). */
export const RUNS_PER_MONTH = 30 * 24 * 60;

/** Metric series every run emits (BlocksScanned, CycleDurationMs, ChainLagBlocks, ChainLagSeconds, ContractsWatched, ApiRequests). */
export const METRICS_EVERY_RUN = 6;

/** Log bytes at INFO: each cycle's summary line; each invocation's summary, EMF record and Lambda's own lines. */
export const LOG_BYTES_PER_CYCLE = 1_000;
export const LOG_BYTES_PER_INVOCATION = 1_500;
