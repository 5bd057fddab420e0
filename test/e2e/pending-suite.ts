// The CLI suites of pending rules: the fake API with one block mined and, for the fallback cases, one mempool
// route answering 404 as an API without it would.
import { coinbase } from '../support/fake-hiro';
import { cliSuite, type CliSuite } from '../support/cli-suite';

export function pendingSuite(name: string, config: Record<string, unknown>, missingRoute: string | null): CliSuite {
  return cliSuite({
    name,
    config,
    setup: ({ chain, fake }) => {
      chain.mine([coinbase()]);
      if (missingRoute) fake.faults.use((r) => (r.route === missingRoute ? { status: 404 } : undefined));
    },
    setupTimeoutMs: 20_000,
  });
}
