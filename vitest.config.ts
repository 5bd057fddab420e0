import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Every wait in a test is bounded: a hung socket or child process fails the test, it never stalls CI.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
