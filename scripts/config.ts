// `npm run config -- COMMAND`: change the live watch config without a deploy. The stack is found by its
// outputs (stack name as the CDK app takes it), AWS credentials and region by the standard chain.
// docs/watch-config-store.md: the store, its limits, rollback.
import { existsSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { S3Client } from '@aws-sdk/client-s3';
import { changeProblems } from '../lambda/config/live-watch-config';
import { formatConfigProblems, parseWatchConfigText, type WatchConfig } from '../lambda/config/watch-config';
import { ruleLists } from '../lambda/core/rules/rule-lists';
import { RATE_LIMIT_WITHOUT_KEY } from '../lambda/hiro/options';
import { balanceBudgetWords } from '../lambda/local/describe-balances';
import { bareAmountWarnings } from '../lambda/core/watch-config/amount-warnings';
import type { Network } from '../lambda/core/domain';
import { describeConfigDiff } from './config/diff-words';
import { ConfigCommandError, findLiveLocation, LiveStore, stackNameFrom } from './config/live-store';
import { starterConfig } from './config/starter';
import { functionMemoryFrom } from './config/function-memory';
import { configCeilings } from '../lambda/core/watch-config/config-ceilings';
import { checkWithTokenDecimals } from './config/token-decimals-check';
import { parseLeavingDecimalsToRead } from '../lambda/config/config-token-decimals';

export const CONFIG_USAGE = `Usage: npm run config -- COMMAND [options]

Commands:
  validate [FILE]     check FILE (default watch.json) with the watcher's own validator; no AWS needed
  diff [FILE]         what FILE changes against the live version, in words
  push [FILE]         validate FILE, upload it as the new live version, print its version id
  history             every version, newest first, the live one marked
  rollback VERSION    copy an earlier version as the new live one (the history stays linear)
  init                write a starter watch.json: --address SP… (in and out, STX and tokens),
                      --contract SP….name (its deployment, its prints, failed calls to it), --network
                      mainnet|testnet; --out FILE (default watch.json), --force to overwrite

Options:
  -c stackName=NAME   the stack (default: STACK_NAME, else cdk.json's context, else StacksWatch)
  -c memorySize=MB    the function memory whose ceilings validate and push check (default: deploy.json's, else 256)
  --api URL           read the decimals of tokens outside the shipped table from this API's token metadata
                      (default: STACKS_API_URL when set; else none is asked and validate and push warn that
                      the function reads them at its first run)
  -h, --help          this text

AWS credentials and region: the standard chain (AWS_PROFILE, AWS_REGION, environment, SSO…).`;

export interface ConfigCommandDeps {
  s3: () => S3Client;
  cloudFormation: () => CloudFormationClient;
  out: (line: string) => void;
  err: (line: string) => void;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

type Values = { context: string[]; address: string[]; contract: string[]; network?: string; out?: string; force: boolean; api?: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A version's JSON object; a live version that is not one (written by hand, refused by the watcher) compares as empty. */
function objectOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

function summary(config: WatchConfig): string {
  const counts = ruleLists
    .map((list) => [list.name, (config as Record<string, unknown>)[list.name]] as const)
    .filter(([, value]) => Array.isArray(value) && value.length > 0)
    .map(([name, value]) => `${(value as unknown[]).length} ${name}`);
  return `${config.network}; ${counts.join(', ')}`;
}

class Command {
  constructor(
    private readonly deps: ConfigCommandDeps,
    private readonly values: Values,
  ) {}

  private get context(): Record<string, string> {
    return Object.fromEntries(this.values.context.map((pair) => pair.split(/=(.*)/s).slice(0, 2) as [string, string]));
  }

  private file(arg: string | undefined): string {
    return resolve(this.deps.cwd, arg ?? 'watch.json');
  }

  /** The file's text and config, and the notes of its token decimals; invalid: every problem printed, exit 2. */
  private async readValid(arg: string | undefined): Promise<{ path: string; text: string; config: WatchConfig; notes: string[] } | number> {
    const path = this.file(arg);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new ConfigCommandError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code}); name the file, or write one with npm run config -- init`);
    }
    // The ceilings of the memory the stack deploys: what the function would refuse, refused here.
    const ceilings = configCeilings(functionMemoryFrom(this.context, this.deps.cwd));
    const api = this.values.api ?? (this.deps.env.STACKS_API_URL?.trim() || undefined);
    const { result, notes } = await checkWithTokenDecimals(text, path, ceilings, api, this.deps.env.STACKS_API_KEY?.trim() || undefined);
    if (!result.ok) {
      this.deps.err(formatConfigProblems(result.problems, path));
      return 2;
    }
    return { path, text, config: result.config, notes };
  }

  private async store(): Promise<LiveStore> {
    const stackName = stackNameFrom(this.context, this.deps.env, resolve(this.deps.cwd, 'cdk.json'));
    return new LiveStore(this.deps.s3(), await findLiveLocation(this.deps.cloudFormation(), stackName));
  }

  async validate(arg?: string): Promise<number> {
    const file = await this.readValid(arg);
    if (typeof file === 'number') return file;
    this.deps.out(`${file.path}: valid (${summary(file.config)})`);
    // The deployed function runs once a minute: what its request budget carries of the balance rules.
    const balanceReads = balanceBudgetWords(file.config, { requestsPerMinute: RATE_LIMIT_WITHOUT_KEY, hasKey: false }, { seconds: 60, word: 'run' });
    if (balanceReads !== null) this.deps.out(balanceReads);
    for (const warning of bareAmountWarnings(file.config)) this.deps.out(warning);
    for (const note of file.notes) this.deps.out(note);
    return 0;
  }

  async diff(arg?: string): Promise<number> {
    const file = await this.readValid(arg);
    if (typeof file === 'number') return file;
    const store = await this.store();
    const live = await store.read();
    const lines = describeConfigDiff(objectOf(live.text), objectOf(file.text));
    this.deps.out(`live version ${live.versionId} (${store.where}) → ${file.path}:`);
    for (const line of lines.length > 0 ? lines : ['the same watch config (comments aside)']) this.deps.out(`  ${line}`);
    const refused = this.refusals(live.text, file.config);
    if (refused.length > 0) this.deps.out(`push would be refused:\n${refused.map((line) => `  ${line}`).join('\n')}`);
    return 0;
  }

  /** What the watcher would refuse of `next` against the live version (network, startHeight). */
  private refusals(liveText: string, next: WatchConfig): string[] {
    // Its token decimals aside: only network and startHeight are compared.
    const live = parseLeavingDecimalsToRead(liveText, 'live').result;
    return live.ok ? changeProblems(live.config, next).map((p) => `${p.path}: ${p.message}`) : [];
  }

  async push(arg?: string): Promise<number> {
    const file = await this.readValid(arg);
    if (typeof file === 'number') return file;
    const store = await this.store();
    const live = await store.read().catch((error: unknown) => {
      if (error instanceof ConfigCommandError && /holds no version yet/.test(error.message)) return undefined;
      throw error;
    });
    const refused = live ? this.refusals(live.text, file.config) : [];
    if (refused.length > 0) {
      this.deps.err(`${file.path} was not pushed: the watcher would refuse it.\n${refused.map((line) => `  ${line}`).join('\n')}`);
      return 2;
    }
    if (live?.text === file.text) {
      this.deps.out(`nothing to push: ${file.path} is the live version ${live.versionId}`);
      return 0;
    }
    const versionId = await store.put(file.text);
    this.deps.out(
      `pushed ${file.path} to ${store.where} as version ${versionId}${live ? ` (was ${live.versionId})` : ''}; the watcher uses it from its next run`,
    );
    if (live) for (const line of describeConfigDiff(objectOf(live.text), objectOf(file.text))) this.deps.out(`  ${line}`);
    for (const note of file.notes) this.deps.out(note);
    return 0;
  }

  async history(): Promise<number> {
    const store = await this.store();
    const versions = await store.history();
    if (versions.length === 0) this.deps.out(`${store.where} has no version yet`);
    for (const v of versions) {
      const when = v.lastModified ? v.lastModified.toISOString().replace(/\.\d+Z$/, 'Z') : '?';
      this.deps.out(`${v.versionId}  ${when}  ${v.size ?? '?'} bytes${v.isLatest ? '  (live)' : ''}`);
    }
    return 0;
  }

  async rollback(versionId?: string): Promise<number> {
    if (!versionId) throw new ConfigCommandError('rollback needs the VERSION to restore: see npm run config -- history');
    const store = await this.store();
    const [earlier, live] = [await store.read(versionId), await store.read()];
    if (earlier.versionId === live.versionId) {
      this.deps.out(`nothing to do: ${versionId} is the live version`);
      return 0;
    }
    // A version the function took once: the decimals of its tokens are in its state already.
    const checked = parseLeavingDecimalsToRead(earlier.text, `version ${versionId}`, configCeilings(functionMemoryFrom(this.context, this.deps.cwd))).result;
    if (!checked.ok) {
      this.deps.err(`version ${versionId} was not restored: the watcher would refuse it.\n${formatConfigProblems(checked.problems, `version ${versionId}`)}`);
      return 2;
    }
    const refused = this.refusals(live.text, checked.config);
    if (refused.length > 0) {
      this.deps.err(`version ${versionId} was not restored: the watcher would refuse it.\n${refused.map((line) => `  ${line}`).join('\n')}`);
      return 2;
    }
    const restored = await store.copyAsCurrent(versionId);
    this.deps.out(`restored version ${versionId} as the new live version ${restored} (was ${live.versionId}); the watcher uses it from its next run`);
    return 0;
  }

  init(): number {
    const { network } = this.values;
    if (network !== undefined && network !== 'mainnet' && network !== 'testnet')
      throw new ConfigCommandError(`--network must be mainnet or testnet, got "${network}"`);
    const result = starterConfig({ addresses: this.values.address, contracts: this.values.contract, ...(network ? { network: network as Network } : {}) });
    if (!result.ok) {
      this.deps.err(`no watch config written:\n${result.problems.map((p) => `  ${p}`).join('\n')}`);
      return 2;
    }
    const path = this.file(this.values.out);
    if (existsSync(path) && !this.values.force) throw new ConfigCommandError(`${path} exists: pass --force to overwrite it, or --out FILE`);
    writeFileSync(path, `${JSON.stringify(result.config, null, 2)}\n`);
    const parsed = parseWatchConfigText(JSON.stringify(result.config), path);
    this.deps.out(`wrote ${path} (${parsed.ok ? summary(parsed.config) : ''}); check it with npm start -- --check, then npm run config -- push`);
    return 0;
  }
}

export async function runConfigCommand(argv: readonly string[], deps: ConfigCommandDeps): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        context: { type: 'string', short: 'c', multiple: true, default: [] },
        address: { type: 'string', multiple: true, default: [] },
        contract: { type: 'string', multiple: true, default: [] },
        network: { type: 'string' },
        out: { type: 'string' },
        force: { type: 'boolean', default: false },
        api: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    deps.err(`${CONFIG_USAGE}\n\n${(error as Error).message}`);
    return 1;
  }
  const [command, arg, extra] = parsed.positionals;
  if (parsed.values.help) {
    deps.out(CONFIG_USAGE);
    return 0;
  }
  const run = new Command(deps, parsed.values as Values);
  const commands: Record<string, () => Promise<number> | number> = {
    validate: () => run.validate(arg),
    diff: () => run.diff(arg),
    push: () => run.push(arg),
    history: () => run.history(),
    rollback: () => run.rollback(arg),
    init: () => run.init(),
  };
  const chosen = command ? commands[command] : undefined;
  if (!chosen || extra !== undefined) {
    deps.err(`${CONFIG_USAGE}\n\n${!command ? 'name a command' : !chosen ? `unknown command "${command}"` : `unexpected "${extra}"`}`);
    return 1;
  }
  try {
    return await chosen();
  } catch (error) {
    if (!(error instanceof ConfigCommandError)) throw error;
    deps.err(error.message);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const code = await runConfigCommand(process.argv.slice(2), {
    s3: () => new S3Client({}),
    cloudFormation: () => new CloudFormationClient({}),
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    cwd: process.cwd(),
    env: process.env,
  });
  process.exitCode = code;
}
