// A fake Emily (sBTC's public API) for tests: real HTTP, shapes from Emily's OpenAPI spec.
export { createFakeEmily, FakeEmily, type RunningFakeEmily } from './server';
export * from './shapes';
