export { createDynamoStateStore, DEFAULT_DYNAMO_RETRY, type DynamoStateStoreOptions } from './dynamo-state-store';
export { STATE_TABLE, stateTableDefinition } from './table';
export { StateStoreError } from './table-access';
export { StateItemError } from './items';
