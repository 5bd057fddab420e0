// The local runner's command line.
import { parseArgs } from 'node:util';
import type { FetchWay } from '../core/follow/fetch-choice';

export const USAGE = `stacks-watch: watch the Stacks blockchain and print an alert for every event you care about

Usage: npm start -- [options]        (npm start --silent -- ... keeps npm's banner off stdout)
       npm start -- history [--since 2026-11-01|24h] [--json] [--state FILE | --table NAME]
                     what was alerted (the state keeps 30 days) and its delivery: sent, parked, retracted

Options:
  --config FILE      watch config (default ./watch.json)
  --state FILE       state file: cursor, statuses, delivered alerts (default .stacks-watch/state.json)
  --once             run one cycle, then exit
  --check            check the config and environment, print what would be watched, exit (no network)
  --status           print the state's cursor, its age and lag behind the tip, pending retractions,
                     muted rules and running cooldowns with what they hold; exit
  --interval SEC     seconds between cycles without --once (default 30)
  --replay FROM[..TO]  try the rules on past blocks FROM to TO (inclusive): print what would have
                     alerted (transfers, logs, calls; not contract statuses), read and write no state,
                     publish nothing, exit
  --no-network-check  skip the start-up check that the API serves the config's network
  --json             alerts as JSON, exactly one object per line and nothing else on stdout
  --table NAME       keep state in this DynamoDB table instead of the file (AWS credentials as usual)
  --topic ARN        publish alerts to this SNS topic instead of stdout
  --version          print the version and exit
  -h, --help         this text

Environment:
  STACKS_API_URL     Hiro API base URL (default by network: https://api.hiro.so or
                     https://api.testnet.hiro.so; http:// only for localhost)
  STACKS_API_KEY     Hiro API key, sent as X-API-Key (raises the limit from 50 to 500 requests/min)
  STACKS_API_RPM     requests per minute to stay under (default 50, or 500 with a key)
  FETCH_WAY          how a cycle reads the chain: auto (default: the cheaper way, as --check says),
                     block-scan or per-subject (docs/api-routes.md)
  LOG_LEVEL          debug | info | warn | error for the log on stderr (default info)

Alerts go to stdout; logs and progress to stderr. Ctrl-C finishes the current block, saves the cursor and
exits; a second Ctrl-C exits at once (the next run resumes from the last finished block).

At start the API must serve the config's network (checked on /v2/info; an API that cannot answer it is
said and the runner goes on, one that serves another network stops it). If the API cannot be reached or
never answers (named within 10 s), or the first cycle fails, the runner exits 1; once a cycle has worked it
rides out outages, pausing longer each time (up to 10 min), and says so once.

Exit codes: 0 cycle(s) done; 2 invalid config, usage or an API of another network (nothing written);
1 runtime failure (the state holds only fully processed blocks).
`;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface CliOptions {
  help: boolean;
  version: boolean;
  check: boolean;
  status: boolean;
  config: string;
  state: string;
  once: boolean;
  /** False with --no-network-check: the API's network is taken on trust. */
  networkCheck: boolean;
  json: boolean;
  intervalSeconds: number;
  table?: string;
  topic?: string;
  /** Past blocks to evaluate the block rules on, both ends included. */
  replay?: { from: number; to: number };
  /** `history`: list the alert records kept in the state, alerted at or after `sinceMs` (epoch ms). */
  history?: { sinceMs?: number };
  /** FETCH_WAY, read with the other environment settings: how each cycle reads the chain. */
  fetchWay?: FetchWay;
}

/** A replay longer than this is a backfill, not a try: run the watcher with `startHeight` instead. */
export const REPLAY_MAX_BLOCKS = 10_000;

function parseReplayRange(text: string): { from: number; to: number } {
  const match = /^(\d+)(?:\.\.(\d+))?$/.exec(text.trim());
  if (!match) throw new UsageError(`--replay takes a block height or a range FROM..TO (e.g. 182000..182100), got "${text}"`);
  const from = Number(match[1]);
  const to = match[2] === undefined ? from : Number(match[2]);
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) throw new UsageError(`--replay heights must be whole numbers, got "${text}"`);
  if (to < from) throw new UsageError(`--replay range ${text} ends before it starts; write the lower height first`);
  if (to - from + 1 > REPLAY_MAX_BLOCKS) {
    throw new UsageError(`--replay covers at most ${REPLAY_MAX_BLOCKS} blocks, got ${to - from + 1}; split the range`);
  }
  return { from, to };
}

export function parseCliArgs(argv: readonly string[], nowMs = Date.now()): CliOptions {
  if (argv[0] === 'history') return parseHistoryArgs(argv.slice(1), nowMs);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
        check: { type: 'boolean', default: false },
        status: { type: 'boolean', default: false },
        config: { type: 'string', default: './watch.json' },
        state: { type: 'string', default: '.stacks-watch/state.json' },
        once: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        'no-network-check': { type: 'boolean', default: false },
        interval: { type: 'string', default: '30' },
        table: { type: 'string' },
        topic: { type: 'string' },
        replay: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  const intervalSeconds = Number(values.interval);
  if (!Number.isFinite(intervalSeconds) || intervalSeconds < 1 || intervalSeconds > 86_400) {
    throw new UsageError(`--interval must be a number of seconds from 1 to 86400, got "${values.interval}"`);
  }
  if (values.topic !== undefined && !/^arn:aws[\w-]*:sns:[\w-]+:\d{12}:[\w-]{1,256}$/.test(values.topic)) {
    throw new UsageError(`--topic must be an SNS topic ARN (arn:aws:sns:REGION:ACCOUNT:NAME), got "${values.topic}"`);
  }
  if (values.table !== undefined && !/^[\w.-]{3,255}$/.test(values.table)) {
    throw new UsageError(`--table must be a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -), got "${values.table}"`);
  }
  if (values.check && values.status) throw new UsageError('--check and --status are separate: give one of them');
  if (values.replay !== undefined && (values.check || values.status || values.table !== undefined || values.topic !== undefined || values.once)) {
    throw new UsageError('--replay reads no state and publishes nothing: it does not combine with --check, --status, --once, --table or --topic');
  }
  const replay = values.replay === undefined ? undefined : parseReplayRange(values.replay);
  return {
    help: values.help ?? false,
    version: values.version ?? false,
    check: values.check ?? false,
    status: values.status ?? false,
    config: values.config!,
    state: values.state!,
    once: values.once ?? false,
    json: values.json ?? false,
    networkCheck: !values['no-network-check'],
    intervalSeconds,
    ...(values.table !== undefined ? { table: values.table } : {}),
    ...(values.topic !== undefined ? { topic: values.topic } : {}),
    ...(replay !== undefined ? { replay } : {}),
  };
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: a date or time (`2026-11-01`, `2026-11-01T12:00Z`) or a span back from now (`30m`, `24h`, `7d`). */
export function parseSince(text: string, nowMs: number): number {
  const span = /^(\d+)\s*([mhd])$/.exec(text.trim());
  if (span) return nowMs - Number(span[1]) * UNIT_MS[span[2]!]!;
  const given = text.trim();
  const zoned = /T/.test(given) && !/(Z|[+-]\d{2}:?\d{2})$/.test(given) ? `${given}Z` : given;
  const at = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(zoned) ? Date.parse(zoned) : Number.NaN;
  if (Number.isNaN(at)) {
    throw new UsageError(`--since takes a date (2026-11-01, 2026-11-01T12:00Z; UTC unless it says) or a span back from now (30m, 24h, 7d), got "${text}"`);
  }
  return at;
}

function parseHistoryArgs(argv: readonly string[], nowMs: number): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        since: { type: 'string' },
        json: { type: 'boolean', default: false },
        state: { type: 'string', default: '.stacks-watch/state.json' },
        table: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError(`history: ${(error as Error).message}`);
  }
  const sinceMs = values.since === undefined ? undefined : parseSince(values.since, nowMs);
  if (values.table !== undefined && !/^[\w.-]{3,255}$/.test(values.table)) {
    throw new UsageError(`--table must be a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -), got "${values.table}"`);
  }
  return {
    help: values.help ?? false,
    version: false,
    check: false,
    status: false,
    config: './watch.json',
    state: values.state!,
    once: false,
    networkCheck: false,
    json: values.json ?? false,
    intervalSeconds: 30,
    history: sinceMs === undefined ? {} : { sinceMs },
    ...(values.table !== undefined ? { table: values.table } : {}),
  };
}
