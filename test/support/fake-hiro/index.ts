// A fake Hiro Stacks API for tests and benchmarks. See README.md beside this file.
export { FakeChain, normalizeHex, type FakeBlock, type FakeChainOptions, type FakeContractStatus, type FakeTx } from './chain';
export { FaultPlan, type FaultOverride, type FaultRule, type RequestMatcher } from './faults';
export type { FakeRateLimitOptions } from './rate-limit';
export { DEPRECATED_CHAIN_READS, ROUTES, type SeenRequest, type SubjectRoutes } from './routes';
export { createFakeHiro, FakeHiro, type FakeHiroOptions, type RunningFakeHiro } from './server';
export {
  clarityValue,
  coinbase,
  contractCall,
  deploy,
  fakeAddress,
  fakeContractId,
  ftAssetEvent,
  ftTransferEvent,
  nftAssetEvent,
  print,
  sha256Hex,
  stxAssetEvent,
  stxTransferEvent,
  tenureChange,
  transfer,
  type AssetMove,
  type FakeEvent,
  type FakeTxSpec,
  type LogSpec,
} from './tx-builders';
export { VirtualClock } from './virtual-clock';
export { stxLockEvent } from './balances';
