// The watcher's watch on itself, judged by the schedule's tick rather than by a CloudWatch metric and alarm:
// the tick already runs every minute and already reads the cursor item, so it can tell how old the last
// scanned block is, and tell the operations topic itself when that passes the limit, naming the cause (a
// block that keeps failing, a chain that does not link, a loop that died, or simply behind or a quiet chain).
// One flag on the cursor item keeps it to one notice a stall, and one more ("moving again") when it ends. A
// watcher that stops running altogether cannot say so; the stack's free alarm on the function's invocations does.
import type { BlockStall, OperatorChannel } from '../ports';

export type StallCause = 'stuck-block' | 'chain-unlinked' | 'loop-died' | 'chain-quiet' | 'behind';

/** The flag on the cursor item: a stall the operator was told of, and when. */
export interface StallFlag {
  cause: StallCause;
  /** Epoch ms of the notice. */
  since: number;
}

/** What the tick reads of the cursor item. */
export interface WatchPoint {
  cursor: { height: number /** unix seconds of the block */; time: number } | null;
  stall: StallFlag | null;
}

export interface SelfWatchStore {
  readBlockStall(): Promise<BlockStall | null>;
  /** Sets or clears the flag (an update of that one attribute: the cursor, lease and loop are left alone). */
  writeStallFlag(flag: StallFlag | null): Promise<void>;
}

export interface SelfWatchDeps {
  store: SelfWatchStore;
  operator: OperatorChannel;
  /** The API's tip height (null when it cannot be read); asked only once a stall is found. */
  tipHeight(): Promise<number | null>;
}

export interface SelfWatchCheck {
  nowMs: number;
  point: WatchPoint;
  /** The lag limit (`lagAlarmSeconds`): the last scanned block older than this is a stall. */
  lagLimitSeconds: number;
  confirmations: number;
  /** Set by a tick that found the loop silent past its limit (and restarted it). */
  loopDied?: { silentMs: number };
}

export type SelfWatchVerdict = 'no-cursor' | 'moving' | 'still-stalled' | 'stalled' | 'moving-again';

// ChainUnlinkedError's message, as the block-stall record keeps it (test/core/self-watch.test.ts builds one).
const UNLINKED = /chain does not link at block/;

/** One tick's judgement: at most one notice and one flag write, and only when the state changes. */
export async function checkProgress(deps: SelfWatchDeps, check: SelfWatchCheck): Promise<SelfWatchVerdict> {
  const { cursor, stall } = check.point;
  if (!cursor) return 'no-cursor';
  const lagSeconds = Math.max(0, Math.round(check.nowMs / 1000 - cursor.time));
  if (lagSeconds <= check.lagLimitSeconds) {
    if (!stall) return 'moving';
    await deps.operator.notify({
      kind: 'watcher-moving',
      subject: `stacks-watch is moving again at block ${cursor.height}`,
      message:
        `The last scanned block (${cursor.height}) is ${lagSeconds} s old again, within the ${check.lagLimitSeconds} s limit. ` +
        `The watcher had been ${STALL_WORDS[stall.cause]} since ${new Date(stall.since).toISOString()}; alerts of the ` +
        'blocks in between went out as they were scanned.',
    });
    await deps.store.writeStallFlag(null);
    return 'moving-again';
  }
  if (stall) return 'still-stalled';
  const notice = await describeStall(deps, check, cursor, lagSeconds);
  // The notice first: a flag write that fails leaves the next tick to page again, rather than a stall unpaged.
  await deps.operator.notify({ kind: 'watcher-stalled', subject: notice.subject, message: `${notice.message}\n\n${FOLLOW_UP}` });
  await deps.store.writeStallFlag({ cause: notice.cause, since: check.nowMs });
  return 'stalled';
}

const STALL_WORDS: Record<StallCause, string> = {
  'stuck-block': 'stuck at a block',
  'chain-unlinked': 'stopped at a chain that does not link',
  'loop-died': 'stalled with its loop dead',
  'chain-quiet': 'waiting on a chain with no new block',
  behind: 'falling behind',
};

const FOLLOW_UP = 'You will get one more message when the watcher moves again; none in between.';

interface StallNotice {
  cause: StallCause;
  subject: string;
  message: string;
}

/** The most specific cause the state and the tip tell, in the words the operator acts on. */
async function describeStall(deps: SelfWatchDeps, check: SelfWatchCheck, cursor: NonNullable<WatchPoint['cursor']>, lagSeconds: number): Promise<StallNotice> {
  const minutes = Math.round(lagSeconds / 60);
  const head = `The last scanned block (${cursor.height}) is ${lagSeconds} s old, past the ${check.lagLimitSeconds} s limit: nothing after it is alerted yet.`;
  const blockStall = await deps.store.readBlockStall();
  if (blockStall && blockStall.height > cursor.height) {
    const cause: StallCause = UNLINKED.test(blockStall.cause) ? 'chain-unlinked' : 'stuck-block';
    const what = cause === 'chain-unlinked' ? `the chain does not link at block ${blockStall.height}` : `stuck at block ${blockStall.height}`;
    return {
      cause,
      subject: `stacks-watch: ${what} for ${minutes} min`,
      message: `${head}\n\n${blockStall.failures} runs in a row failed at block ${blockStall.height}. Latest cause: ${blockStall.cause}`,
    };
  }
  if (check.loopDied) {
    return {
      cause: 'loop-died',
      subject: `stacks-watch: its loop died and it is ${minutes} min behind`,
      message:
        `${head}\n\nNo loop turn had begun for ${Math.round(check.loopDied.silentMs / 1000)} s; the schedule restarted the loop. ` +
        'Read the function logs ("loop turn") for why turns stopped.',
    };
  }
  const tip = await deps.tipHeight();
  if (tip === null) {
    return {
      cause: 'behind',
      subject: `stacks-watch: no block scanned for ${minutes} min`,
      message: `${head}\n\nThe API's tip could not be read: check that the Stacks API answers and the function succeeds.`,
    };
  }
  const behind = tip - check.confirmations - cursor.height;
  if (behind <= 0) {
    return {
      cause: 'chain-quiet',
      subject: `stacks-watch: no new block on the chain for ${minutes} min`,
      message: `${head}\n\nThe API's tip is block ${tip}: the Stacks chain (or the API's view of it) has no new block to scan. Nothing is wrong with the watcher; check the chain's status or point it at another API.`,
    };
  }
  return {
    cause: 'behind',
    subject: `stacks-watch: ${behind} blocks behind the tip for ${minutes} min`,
    message: `${head}\n\nThe API's tip is block ${tip}. Runs are failing or too slow: read the function logs ("invocation failed", 429s) and the rate limit.`,
  };
}
