// Step Functions as the loop's timer, priced from the same model as the SQS loop's bill (bench/monthly-bill.ts):
// the same turns, each the same measured cycle, with the state machine in place of the turns queue.
// - Standard: a Wait state of the delay, then a Task invoking the function, back to the Wait: two state
//   transitions a turn (the wait itself is free). Executions are restarted before their history limit; that is
//   a few transitions a day, left out.
// - Express: billed for its duration while it waits (an execution lasts at most 5 minutes, so one runs at all
//   times, restarted every 5 minutes), at the smallest memory step (64 MB), and per execution.
import { PRICES } from './aws-prices';
import type { BillLine, MonthlyBill } from './monthly-bill';

const MONTH_SECONDS = 30 * 24 * 3600;
const TRANSITIONS_PER_TURN = 2;
const EXPRESS_MAX_SECONDS = 300;
const EXPRESS_MEMORY_GB = 64 / 1024;

export type StepFunctionsKind = 'standard' | 'express';

/** The loop's bill with its turns queue replaced by a Step Functions state machine of `kind`. */
export function stepFunctionsBill(loopBill: MonthlyBill, kind: StepFunctionsKind): MonthlyBill {
  const loop = loopBill.loop;
  if (!loop) throw new Error('Step Functions are priced from a loop-mode bill');
  const lines: BillLine[] = loopBill.lines.filter((line) => line.item !== 'SQS requests, loop turns');
  const resource = `StateMachine (${kind})`;
  if (kind === 'standard') {
    const transitions = loop.turns * TRANSITIONS_PER_TURN;
    lines.push({
      resource,
      item: 'Step Functions state transitions',
      quantity: `${Math.round(transitions).toLocaleString('en-US')} (${TRANSITIONS_PER_TURN} a turn)`,
      dollars: transitions * PRICES.stepFunctionsTransition,
    });
  } else {
    const executions = MONTH_SECONDS / EXPRESS_MAX_SECONDS;
    const gbSeconds = MONTH_SECONDS * EXPRESS_MEMORY_GB;
    lines.push({
      resource,
      item: 'Step Functions Express executions',
      quantity: Math.round(executions).toLocaleString('en-US'),
      dollars: executions * PRICES.stepFunctionsExpressRequest,
    });
    lines.push({
      resource,
      item: 'Step Functions Express duration (waiting included)',
      quantity: `${Math.round(gbSeconds).toLocaleString('en-US')} GB-s (64 MB, all month)`,
      dollars: gbSeconds * PRICES.stepFunctionsExpressGbSecond,
    });
  }
  return { ...loopBill, lines, total: lines.reduce((sum, line) => sum + line.dollars, 0) };
}
