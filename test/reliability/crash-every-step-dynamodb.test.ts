// Crash at every step over the DynamoDB store on dynalite: a fresh table per scenario, and a new store
// (new client state, no claims held) for every run, as a new Lambda container would have.
import { afterAll, beforeAll } from 'vitest';
import { createDynamoStateStore } from '../../lambda/adapters/dynamodb';
import { startDynalite, type LocalDynamo } from '../support/dynalite';
import { describeCrashAtEveryStep } from './crash-suite';

let dynamo: LocalDynamo;
let tables = 0;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo?.close();
});

describeCrashAtEveryStep(
  'DynamoDB store',
  async () => {
    const tableName = await dynamo.createTable(`crash-${++tables}`);
    return (clock) => createDynamoStateStore({ client: dynamo.client, tableName, network: 'mainnet', now: clock.now, sleep: async () => {} });
  },
  { every: false },
);
