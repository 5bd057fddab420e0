import { defineConfig } from 'vitest/config';

// Two projects, so that `npm test` spends the machine on tests rather than on starting workers:
//  - `unit`: the suites that need no server of their own beyond an in-process fake, no child process and no
//    module reloading (the core, rendering, the config, the Hiro client on its fake API, the guards). They
//    run in worker threads that each import the sources once and run file after file (isolate: false), so
//    a suite must leave no global behind it: a mock restored, an environment variable put back.
//  - `integration`: the CLI suites (starting the CLI bundled once per run: test/support/cli-bundle.ts), the
//    Lambda handler on dynalite, the fault-injection suites, the CDK template. Each file in a fork of its own.
// `npm run test:fast` runs the first with the type-check and the lint: the inner loop.
export const INTEGRATION_SUITES = [
  'test/e2e/**/*.test.ts',
  'test/reliability/**/*.test.ts',
  'test/handler/**/*.test.ts',
  'test/infra/**/*.test.ts',
  'test/adapters/dynamodb/**/*.test.ts',
  'test/adapters/state-store-contract.test.ts',
  'test/runtime/lambda-watch-config.test.ts',
  'test/support/**/*.test.ts',
  // Prices the synthesized template: a CDK synth per shape.
  'test/bench/monthly-bill.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    // Every wait in a test is bounded: a hung socket or child process fails the test, it never stalls CI.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: INTEGRATION_SUITES,
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION_SUITES,
          pool: 'forks',
          globalSetup: ['test/support/cli-bundle-setup.ts'],
        },
      },
    ],
  },
});
