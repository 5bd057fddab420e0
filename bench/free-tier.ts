// What a bill would come to in an account whose AWS always-free tiers (those that do not expire after the
// first year) nothing else uses: each tier's allowance, in list-price dollars, taken off the bill lines it
// covers. Table 5b's totals deduct no free tier; this is shown beside them, for a small account's view.
import { PRICES } from './aws-prices';
import type { MonthlyBill } from './monthly-bill';

/** [bill items the tier covers, its allowance a month in list-price dollars]. */
const ALWAYS_FREE: [RegExp, number][] = [
  [/^Lambda requests/, 1e6 * PRICES.lambdaRequest], // 1 million requests
  [/^Lambda compute/, 400_000 * PRICES.lambdaGbSecond], // 400,000 GB-s
  [/^SQS requests/, 1e6 * PRICES.sqsRequest], // 1 million requests
  [/^SNS publishes/, 1e6 * PRICES.snsPublish], // 1 million publishes
  [/^CloudWatch custom metrics/, 10 * PRICES.cloudWatchMetric], // 10 metrics
  [/^CloudWatch alarm/, 10 * PRICES.cloudWatchAlarm], // 10 alarm metrics
  [/^CloudWatch dashboard/, 3 * PRICES.cloudWatchDashboard], // 3 dashboards
  [/^CloudWatch Logs (ingestion|storage)/, 5 * PRICES.cloudWatchLogsGb], // 5 GB ingested and stored
  [/^EventBridge Scheduler/, 14e6 * PRICES.schedulerInvocation], // 14 million invocations
  [/^DynamoDB storage/, 25 * PRICES.dynamoStorageGb], // 25 GB (on-demand reads and writes have no free tier)
  [/^KMS requests/, 20_000 * PRICES.kmsRequest], // 20,000 requests
  [/^Step Functions state transitions/, 4_000 * PRICES.stepFunctionsTransition], // 4,000 transitions
];

export function totalWithAlwaysFreeTiers(bill: MonthlyBill): number {
  const left = ALWAYS_FREE.map(([, allowance]) => allowance);
  let total = 0;
  for (const line of bill.lines) {
    const tier = ALWAYS_FREE.findIndex(([items]) => items.test(line.item));
    if (tier < 0) {
      total += line.dollars;
      continue;
    }
    const covered = Math.min(line.dollars, left[tier]!);
    left[tier]! -= covered;
    total += line.dollars - covered;
  }
  return total;
}
