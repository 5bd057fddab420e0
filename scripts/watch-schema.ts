// `npm run schema`: writes watch.schema.json, the JSON Schema editors use to complete and check watch.json
// (`"$schema": "./watch.schema.json"`), generated from the same zod schema the watcher validates with, so the
// two cannot drift (a test fails while the committed file is not what this writes).
// JSON Schema cannot say everything the watcher checks (a principal's network and checksum, a condition's
// operators, duplicates): the watcher still validates the whole file, with messages naming each problem.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { watchConfigSchema } from '../lambda/core/watch-config/watch-config-schema';

export const WATCH_SCHEMA_PATH = fileURLToPath(new URL('../watch.schema.json', import.meta.url));

/** What each top-level key holds, shown by editors on hover (the reference is docs/watch-config.md). */
const DESCRIPTIONS: Record<string, string> = {
  $schema: 'This file: "./watch.schema.json", for editors.',
  $comment: 'Ignored by the watcher: a note, or a list of notes.',
  network: '"mainnet" or "testnet": every address and contract id must belong to it.',
  contracts: 'Contract ids whose deployment status to watch: an alert on the first check, then on every change.',
  contractsRule: 'The name and severity of every "contracts" alert.',
  addresses: 'Addresses whose incoming STX to watch, by any route (native transfers and inside contract calls).',
  addressesRule: 'The name, severity and memo condition of every "addresses" alert.',
  contractLogs: 'Print events of these contracts, optionally only those that contain a text or meet "where" conditions.',
  transfers: 'Rules on STX, fungible token and NFT movements to or from watched addresses.',
  calls: 'Transactions calling these contracts, optionally by function, sender and outcome.',
  startHeight: '"latest" (the chain tip) or the block height the first run starts from.',
  confirmations: 'Blocks that must sit on top of a block before it is scanned (0 to 100).',
  maxBlocksPerRun: 'The most blocks one run scans (1 to 10,000).',
  smsPerRun: 'Alerts texted per run (per minute in the loop mode); the rest reach phones as one digest text (0 to 100).',
};

export function watchJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(watchConfigSchema(null), { io: 'input', unrepresentable: 'any', target: 'draft-7' }) as {
    properties: Record<string, Record<string, unknown>>;
  };
  for (const [key, description] of Object.entries(DESCRIPTIONS)) {
    if (schema.properties[key]) schema.properties[key] = { description, ...schema.properties[key] };
  }
  return { ...schema, title: 'stacks-watch watch config', description: 'What stacks-watch watches: see docs/watch-config.md.' };
}

export const watchSchemaText = () => `${JSON.stringify(watchJsonSchema(), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(WATCH_SCHEMA_PATH, watchSchemaText());
  process.stdout.write(`wrote ${WATCH_SCHEMA_PATH}\n`);
}
