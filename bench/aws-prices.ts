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
  /** Logs kept (archived), per GB a month; counted uncompressed, an upper bound. */
  cloudWatchLogsStoredGb: 0.03,
  /** Standard-resolution alarm, per alarm a month. */
  cloudWatchAlarm: 0.1,
  /** Per dashboard a month (an account's first three are free; not deducted). */
  cloudWatchDashboard: 3,
  /** EventBridge Scheduler, per invocation. */
  schedulerInvocation: 1 / 1e6,
  /** DynamoDB Standard table class, per GB a month. */
  dynamoStorageGb: 0.25,
  /** Continuous backups (point-in-time recovery), per GB a month of table size. */
  dynamoPitrGb: 0.2,
  /** A customer-managed key, per month (each of its first two rotations adds as much again). */
  kmsKey: 1,
  kmsRequest: 0.03 / 10_000,
  /** Standard queue, per request (each 64 KB chunk of a payload), first tier. */
  sqsRequest: 0.4 / 1e6,
  /** Step Functions Standard, per state transition. */
  stepFunctionsTransition: 0.025 / 1000,
  /** Step Functions Express, per execution, and per GB-s of duration (first 1,000 GB-hours; billed in 64 MB, 100 ms steps). */
  stepFunctionsExpressRequest: 1 / 1e6,
  stepFunctionsExpressGbSecond: 0.00001667,
  secretsManagerSecret: 0.4,
  secretsManagerApiCall: 0.05 / 10_000,
  /** S3 Standard: GET (a 304 answer to a conditional GET is billed as one), PUT/COPY/LIST, storage per GB a month. */
  s3GetRequest: 0.4 / 1e6,
  s3PutRequest: 5 / 1e6,
  s3StorageGb: 0.023,
} as const;

/** Scheduled runs a month at a 1-minute schedule (30 days). */
export const RUNS_PER_MONTH = 30 * 24 * 60;
