import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { orderSuites, SUITE_ORDER } from './test/support/suite-order.ts';

// Three projects, so that `npm test` spends the machine on tests rather than on starting workers and
// importing the same packages in each:
//  - `unit`: the suites that need no server of their own beyond an in-process fake, no child process and no
//    module reloading (the core, rendering, the config, the Hiro client on its fake API, the guards). They
//    run in worker threads that each import the sources once and run file after file (isolate: false), so
//    a suite must leave no global behind it: a mock restored, an environment variable put back.
//  - `infra`: the CDK template suites. A synth costs about a second and most suites read the same few shapes,
//    so they share worker threads (isolate: false) in which each shape is synthesized once
//    (test/infra/support/synth.ts) and aws-cdk-lib is loaded once.
//  - `e2e`: the CLI suites, the fault-injection suites and the DynamoDB adapter on dynalite, and with them the
//    suites that reload modules (a handler cold start), set process.env or mock an AWS client class
//    (INTEGRATION_SUITES: the Lambda handler on dynalite, and the few others below). The CLI runs in the
//    worker through the entry the bin calls (test/support/cli-in-process.ts), which puts back the globals it
//    lends a run; only what a process must show (Ctrl-C, a kill, `npm start`) starts one, from the CLI bundled
//    once per run (test/support/cli-bundle.ts). A cold start (test/support/handler-environment.ts) evaluates
//    the project's modules afresh and empties Powertools' caches, the packages stay loaded, and each suite
//    puts back the variables it set and re-mocks the clients it uses; no other suite here sends through an
//    SNS, SQS, S3, SSM or Secrets Manager client, which those suites mock. They all share worker threads
//    (isolate: false) rather than paying a fork and a fresh import of the sources per file: a fork per file
//    cost three seconds of CPU before the first test, and the handler suites in workers of their own
//    imported the AWS SDK and dynalite again.
// `npm run test:fast` runs the first with the type-check and the lint: the inner loop.
export const INFRA_SUITES = [
  'test/infra/**/*.test.ts',
  // Price the synthesized template: a CDK synth per shape.
  'test/bench/monthly-bill.test.ts',
  'test/bench/latency-floor.test.ts',
];
export const INTEGRATION_SUITES = [
  'test/handler/**/*.test.ts',
  'test/reliability/lambda-bad-setup.test.ts',
  'test/reliability/hostile-chain-data.test.ts',
  'test/adapters/dynamodb/dynamo-requests.test.ts',
  'test/runtime/lambda-watch-config.test.ts',
  'test/support/**/*.test.ts',
];
export const E2E_SUITES = [
  'test/e2e/**/*.test.ts',
  // `cdk synth` in child processes (about 20 s of CPU): started among the suites that mostly wait, not after them.
  'test/infra/cdk-synth.test.ts',
  // The benchmark's own runs on short chains (dynalite, the fake API): too heavy for the inner loop.
  'test/bench/fetch-ways.test.ts',
  'test/bench/cycle-measure.test.ts',
  'test/reliability/**/*.test.ts',
  'test/adapters/dynamodb/**/*.test.ts',
  'test/adapters/state-store-contract.test.ts',
];

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/** Starts the files in test/support/suite-order.ts's order, the same on every machine, rather than vitest's. */
class SuiteSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return orderSuites(files, SUITE_ORDER, (spec) => ({
      project: spec.project.name,
      path: relative(ROOT, spec.moduleId),
      size: statSync(spec.moduleId).size,
    }));
  }
}

export default defineConfig({
  test: {
    environment: 'node',
    // Every wait in a test is bounded: a hung socket or child process fails the test, it never stalls CI.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Workers per project, the projects one after the other (each its own `groupOrder`; vitest ends a project's
    // workers once the next file is another project's anyway). Vitest's default is one worker fewer than the
    // cores: on 2 cores, the whole suite one file at a time. Each worker imports its project's sources and
    // packages again and warms its own JIT, so a worker more costs CPU (back to back on 2 idle cores, e2e spent
    // 146 and 147 s of CPU on 6 workers, 115 and 120 s on 4, and ended 6 s sooner) and pays only where suites
    // wait. e2e's wait on child processes, servers and timers, and keep 2 cores busy with 4 workers now that the
    // suites that waited out rate-limit windows run on an event clock (bench/event-clock.ts). The CDK synths and
    // the pure suites compute, and run one worker a core (the unit project one more, for the state file's
    // fsyncs). This is e2e's; the other two projects set their own.
    maxWorkers: availableParallelism() + 2,
    sequence: { sequencer: SuiteSequencer },
    // Each project transforms the sources it imports in its own Vite environment: without a shared cache, two
    // thirds of the project's files were transformed three times a run. The file cache (node_modules/
    // .experimental-vitest-cache, keyed by each file's content and id, emptied by `npm ci`) serves the second
    // and third from the first's output within a run and every file in later runs: on 2 idle cores, from a cold
    // cache, 107 and 111 s against 115 and 119 s without. No plugin here reads other files, the case its
    // documentation warns of.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          maxWorkers: availableParallelism() + 1,
          sequence: { groupOrder: 2 },
          include: ['test/**/*.test.ts'],
          exclude: [...INFRA_SUITES, ...E2E_SUITES, ...INTEGRATION_SUITES],
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'infra',
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 1 },
          include: INFRA_SUITES,
          exclude: E2E_SUITES,
          pool: 'threads',
          isolate: false,
          globalSetup: ['test/support/cdk-out-setup.ts'],
          // CDK's built-in CloudFormation check starts a WebAssembly rules engine, seconds of CPU per process, and
          // only warns unless @aws-cdk/core:validateAgainstDefaultRules is set: the synths here read and price
          // templates (the `cdk synth` suite turns it off in its child the same way).
          env: { CDK_VALIDATION: 'false' },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [...E2E_SUITES, ...INTEGRATION_SUITES],
          pool: 'threads',
          isolate: false,
          globalSetup: ['test/support/cli-bundle-setup.ts'],
        },
      },
    ],
  },
});
