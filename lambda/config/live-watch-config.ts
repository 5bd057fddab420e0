// The watch config the function runs on, read from the store at the start of every run: a conditional read
// that costs a quiet run one request; a new version is validated (schema, then what it may change) before it
// takes effect; a bad one is refused, told to the operator once, and the last good version keeps running.
// docs/watch-config-store.md says what each change means.
import type { OperatorChannel, Telemetry } from '../core/ports';
import type { WatchConfig } from '../core/watch-config/watch-config-schema';
import type {
  RejectedConfigVersion,
  WatchConfigMemo,
  WatchConfigMemoStore,
  WatchConfigSource,
  WatchConfigVersion,
} from '../core/watch-config/watch-config-source';
import { type ConfigProblem, describeValue, WatchConfigError } from '../core/watch-config/config-problems';
import { bytesProblem, configCeilings, type ConfigCeilings } from '../core/watch-config/config-ceilings';
import {
  isUnread,
  parseWithTokenDecimals,
  TokenDecimalsUnreadError,
  unreadMessage,
  type DecimalsUnread,
  type PreparedConfigResult,
  type TokenDecimalsFor,
} from './config-token-decimals';

/** The memo is one DynamoDB item (400 KB at most): a longer config is remembered by version id alone. */
export const MEMO_TEXT_MAX_BYTES = 300_000;
/** A refused version's problems kept in the memo and the log lines (the ops notice lists them all). */
export const PROBLEMS_KEPT = 20;

/** What a run uses, and what the run's log line says about it. */
export interface LiveConfig {
  config: WatchConfig;
  versionId: string;
  /** The current version when it was refused, with its problems, until a good version replaces it. */
  rejected?: RejectedConfigVersion;
}

export interface LiveWatchConfigDeps {
  source: WatchConfigSource;
  memo: WatchConfigMemoStore;
  /** The ceilings of the function's memory (the default memory's unless given); the source's read follows them too. */
  ceilings?: ConfigCeilings;
}

/** Who hears of a refused version, and where token decimals are read: given per run, since each run has its own telemetry and API client. */
export interface ConfigListeners {
  operator: OperatorChannel;
  log: Telemetry['log'];
  /** Left out, a version whose token amounts need decimals from the token metadata is refused by the schema. */
  decimalsFor?: TokenDecimalsFor;
}

/** The version in use: its config, not its text, which would double what a long list holds for the whole run. */
interface Good {
  versionId: string;
  etag: string;
  config: WatchConfig;
}

/** The settings a running watcher cannot change: its state (cursor, alerts) belongs to them. */
export function changeProblems(previous: WatchConfig, next: WatchConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (previous.network !== next.network) {
    problems.push({
      path: '$.network',
      value: next.network,
      message: `the watcher runs on ${previous.network} and its state (cursor, alerts) is ${previous.network}'s; a network change needs a stack of its own (deploy another with -c stackName=…)`,
    });
  }
  if (previous.startHeight !== next.startHeight) {
    problems.push({
      path: '$.startHeight',
      value: next.startHeight,
      message: `startHeight was ${describeValue(previous.startHeight)}: it only places the first cursor, which exists now; to scan past blocks use \`npm start -- --replay\`, or keep the old value`,
    });
  }
  return problems;
}

const problemLine = (p: ConfigProblem) => `${p.path}: ${p.message}${p.value === undefined ? '' : ` (found: ${describeValue(p.value)})`}`;

/** One per container: remembers the version in use and the ETag last seen between warm invocations. */
export class LiveWatchConfig {
  private good: Good | undefined;
  private memo: WatchConfigMemo | null | undefined;
  private seenEtag: string | undefined;
  private listeners: ConfigListeners = { operator: { notify: async () => {} }, log: () => {} };

  private readonly ceilings: ConfigCeilings;

  constructor(private readonly deps: LiveWatchConfigDeps) {
    this.ceilings = deps.ceilings ?? configCeilings();
  }

  /**
   * A version's text checked within the ceilings, with the token decimals it needs (stored, or read through
   * the run's API client); one the source did not download for its size is refused by it.
   */
  private async parse(version: { text: string; tooLongBytes?: number }, source: string): Promise<PreparedConfigResult> {
    if (version.tooLongBytes !== undefined) return { ok: false, problems: [bytesProblem(version.tooLongBytes, this.ceilings, source)!] };
    return parseWithTokenDecimals(version.text, source, {
      decimalsFor: this.listeners.decimalsFor,
      ceilings: this.ceilings,
      network: this.good?.config.network,
    });
  }

  /**
   * `rereadMemo`: read the memo again first, as a cold start does, so that a version another container took into
   * use or refused meanwhile is judged as it did (a refused one is not told twice).
   */
  async current(listeners: ConfigListeners, options: { rereadMemo?: boolean } = {}): Promise<LiveConfig> {
    this.listeners = listeners;
    const { source } = this.deps;
    const { log } = listeners;
    if (options.rereadMemo) this.memo = undefined;
    const memo = await this.readMemo();
    const ifNoneMatch = this.ifNoneMatch(memo);
    let fetched;
    try {
      fetched = await source.fetchCurrent(ifNoneMatch);
    } catch (error) {
      // The store unreachable: the version in use goes on; without one there is nothing to run.
      if (!this.good) throw error;
      log('warn', 'the watch config store could not be read; running on the version in use', { location: source.location, reason: String(error) });
      return this.result(memo);
    }
    if (fetched.changed) await this.consider(fetched.version, memo);
    else this.seenEtag = ifNoneMatch;
    if (!this.good) await this.recoverGood(memo);
    return this.result(this.memo ?? null);
  }

  private async readMemo(): Promise<WatchConfigMemo | null> {
    if (this.memo !== undefined) return this.memo;
    this.memo = await this.deps.memo.readConfigMemo();
    const text = this.memo?.good.text;
    if (this.memo && text !== undefined) {
      const parsed = await this.parse({ text }, this.deps.source.location);
      // A memo written by an older release whose schema has since changed is simply not used.
      if (parsed.ok) this.good = { versionId: this.memo.good.versionId, etag: this.memo.good.etag, config: parsed.config };
    }
    return this.memo;
  }

  /** The ETag to send: the one last seen; on a cold start, the memo's when its text spares the download. */
  private ifNoneMatch(memo: WatchConfigMemo | null): string | undefined {
    if (this.seenEtag) return this.seenEtag;
    if (!this.good) return undefined;
    return memo?.rejected?.etag ?? this.good.etag;
  }

  private async consider(version: WatchConfigVersion, memo: WatchConfigMemo | null): Promise<void> {
    this.seenEtag = version.etag;
    if (this.good?.etag === version.etag && this.good.versionId === version.versionId) return;
    if (memo?.rejected?.versionId === version.versionId) return; // refused before, told already
    if (!this.good && memo?.good.versionId === version.versionId) {
      // The memo's version, downloaded because its text did not fit the memo: it was valid when taken.
      const parsed = await this.parse(version, this.deps.source.location);
      if (parsed.ok) {
        this.good = { versionId: version.versionId, etag: version.etag, config: parsed.config };
        return;
      }
    }
    // A new version after a cold start whose memo kept no text: the good one is needed to judge the change.
    if (!this.good && memo) await this.recoverGood(memo);
    const problems = await this.problemsOf(version);
    if (problems.ok) await this.accept(version, problems.config);
    else if (isUnread(problems)) this.postpone(version, problems);
    else await this.refuse(version, problems.problems);
  }

  private async problemsOf(version: WatchConfigVersion): Promise<PreparedConfigResult> {
    const parsed = await this.parse(version, `version ${version.versionId}`);
    if (!parsed.ok) return parsed;
    const changes = this.good ? changeProblems(this.good.config, parsed.config) : [];
    return changes.length > 0 ? { ok: false, problems: changes } : parsed;
  }

  private async accept(version: WatchConfigVersion, config: WatchConfig): Promise<void> {
    const previous = this.good?.versionId;
    this.good = { versionId: version.versionId, etag: version.etag, config };
    const fits = Buffer.byteLength(version.text, 'utf8') <= MEMO_TEXT_MAX_BYTES;
    this.memo = { good: { versionId: version.versionId, etag: version.etag, ...(fits ? { text: version.text } : {}) } };
    await this.deps.memo.writeConfigMemo(this.memo);
    this.listeners.log('info', 'watch config version taken into use', { versionId: version.versionId, previousVersionId: previous ?? null });
  }

  /**
   * No answer from the token metadata API: the version is neither taken nor refused (nothing remembered), the
   * run goes on with the version in use and says why, and the next run downloads it again and retries.
   */
  private postpone(version: WatchConfigVersion, unread: DecimalsUnread): void {
    const where = `the watch config version ${version.versionId}`;
    if (!this.good)
      throw new TokenDecimalsUnreadError(`${unreadMessage(where, unread)}; there is no earlier version to run on`, { cause: unread.unread.cause });
    this.seenEtag = undefined;
    this.listeners.log('warn', `${unreadMessage(where, unread)}; running on version ${this.good.versionId} until then`, {
      versionId: version.versionId,
      tokens: unread.unread.tokens,
    });
  }

  private async refuse(version: WatchConfigVersion, problems: ConfigProblem[]): Promise<void> {
    const lines = problems.map(problemLine);
    const rejected: RejectedConfigVersion = {
      versionId: version.versionId,
      etag: version.etag,
      problems: lines.slice(0, PROBLEMS_KEPT),
      problemCount: lines.length,
    };
    if (!this.good) {
      // Nothing good to fall back on (the very first version is bad): the run cannot start.
      throw new WatchConfigError(problems, `${this.deps.source.location} version ${version.versionId}`);
    }
    this.memo = { good: this.memo?.good ?? { versionId: this.good.versionId, etag: this.good.etag }, rejected };
    await this.deps.memo.writeConfigMemo(this.memo);
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    await this.listeners.operator.notify({
      kind: 'watch-config-rejected',
      subject: `stacks-watch: watch config version refused, still on ${this.good.versionId}`.slice(0, 99),
      message: [
        `The watch config version ${version.versionId} at ${this.deps.source.location} was refused (${count}); the watcher keeps running on version ${this.good.versionId}.`,
        ...lines.map((line) => `  ${line}`),
        'Fix the file and `npm run config -- push` it, or `npm run config -- rollback VERSION` to an earlier one.',
      ].join('\n'),
    });
  }

  /** The current version was refused or was the memo's, but its text was not kept: read the good one by id. */
  private async recoverGood(memo: WatchConfigMemo | null): Promise<void> {
    if (!memo) throw new WatchConfigError([{ path: '$', value: undefined, message: 'no watch config version was found' }], this.deps.source.location);
    const version = await this.deps.source.fetchVersion(memo.good.versionId);
    const where = `${this.deps.source.location} version ${version.versionId}`;
    const parsed = await this.parse(version, where);
    if (isUnread(parsed)) throw new TokenDecimalsUnreadError(unreadMessage(where, parsed), { cause: parsed.unread.cause });
    if (!parsed.ok) throw new WatchConfigError(parsed.problems, where);
    this.good = { versionId: version.versionId, etag: version.etag, config: parsed.config };
  }

  private result(memo: WatchConfigMemo | null): LiveConfig {
    const good = this.good!;
    const rejected = memo?.rejected && this.seenEtag === memo.rejected.etag ? memo.rejected : undefined;
    return { config: good.config, versionId: good.versionId, ...(rejected ? { rejected } : {}) };
  }
}
