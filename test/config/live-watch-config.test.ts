// The live config's choices without AWS: an in-memory store that counts its reads, an in-memory memo.
import { describe, expect, it } from 'vitest';
import { LiveWatchConfig, MEMO_TEXT_MAX_BYTES, PROBLEMS_KEPT } from '../../lambda/config/live-watch-config';
import type { OperatorNotice } from '../../lambda/core/ports';
import type { WatchConfigMemo, WatchConfigSource, WatchConfigVersion } from '../../lambda/core/watch-config/watch-config-source';
import { fakeAddress } from '../support/fake-hiro';

function store() {
  const versions: WatchConfigVersion[] = [];
  const reads: string[] = [];
  let down = false;
  const source: WatchConfigSource = {
    location: 's3://bucket/watch.json',
    async fetchCurrent(ifNoneMatch) {
      if (down) throw new Error('connection refused');
      const current = versions.at(-1)!;
      reads.push(ifNoneMatch === current.etag ? 'current:304' : 'current:200');
      return ifNoneMatch === current.etag ? { changed: false } : { changed: true, version: current };
    },
    async fetchVersion(versionId) {
      reads.push(`version:${versionId}`);
      return versions.find((v) => v.versionId === versionId)!;
    },
  };
  let memo: WatchConfigMemo | null = null;
  const memoStore = { readConfigMemo: async () => memo, writeConfigMemo: async (m: WatchConfigMemo) => void (memo = structuredClone(m)) };
  const push = (config: unknown) => {
    const text = JSON.stringify(config);
    versions.push({ versionId: `v${versions.length + 1}`, etag: `"e${versions.length + 1}-${text.length}"`, text });
    return versions.at(-1)!;
  };
  return { source, memoStore, push, reads, memo: () => memo, setDown: (value: boolean) => void (down = value) };
}

const notices: OperatorNotice[] = [];
const listeners = { operator: { notify: async (n: OperatorNotice) => void notices.push(n) }, log: () => {} };
const addresses = (count: number) => Array.from({ length: count }, (_, i) => fakeAddress(`holder-${i}`));

describe('the live watch config', () => {
  it('remembers a config too long for the memo by version id, and reads that version back after a cold start behind a bad one', async () => {
    const s = store();
    const big = { network: 'mainnet', addresses: addresses(8_000) };
    expect(JSON.stringify(big).length).toBeGreaterThan(MEMO_TEXT_MAX_BYTES);
    const v1 = s.push(big);
    expect((await new LiveWatchConfig({ source: s.source, memo: s.memoStore }).current(listeners)).versionId).toBe(v1.versionId);
    expect(s.memo()!.good).toEqual({ versionId: 'v1', etag: v1.etag });

    s.push({ network: 'testnet', addresses: [] });
    const warm = new LiveWatchConfig({ source: s.source, memo: s.memoStore });
    s.reads.length = 0;
    const live = await warm.current(listeners);
    expect(live).toMatchObject({ versionId: 'v1', rejected: { versionId: 'v2' } });
    expect(s.reads).toEqual(['current:200', 'version:v1']);
    expect(live.config.addresses).toHaveLength(8_000);
    expect(s.memo()!.good).toEqual({ versionId: 'v1', etag: v1.etag });
  });

  it('goes on with the version in use when the store cannot be read, and fails a cold start with nothing in use', async () => {
    const s = store();
    s.push({ network: 'mainnet', addresses: addresses(1) });
    const live = new LiveWatchConfig({ source: s.source, memo: s.memoStore });
    await live.current(listeners);
    s.setDown(true);
    expect((await live.current(listeners)).versionId).toBe('v1');
    const empty = store();
    empty.push({ network: 'mainnet', addresses: addresses(1) });
    empty.setDown(true);
    await expect(new LiveWatchConfig({ source: empty.source, memo: empty.memoStore }).current(listeners)).rejects.toThrow(/connection refused/);
  });

  it('keeps the first problems of a version with thousands in the memo (a DynamoDB item is 400 KB) and tells them all to the operator', async () => {
    const s = store();
    s.push({ network: 'mainnet', addresses: addresses(1) });
    const live = new LiveWatchConfig({ source: s.source, memo: s.memoStore });
    await live.current(listeners);
    notices.length = 0;
    s.push({ network: 'mainnet', addresses: Array.from({ length: 5_000 }, (_, i) => `SP${i}`) });
    const result = await live.current(listeners);
    expect(result.rejected).toMatchObject({ versionId: 'v2', problemCount: 5_000 });
    expect(s.memo()!.rejected!.problems).toHaveLength(PROBLEMS_KEPT);
    expect(JSON.stringify(s.memo()).length).toBeLessThan(10_000);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message.match(/\$\.addresses\[\d+\]/g)).toHaveLength(5_000);
  });

  it('fails a first version that is invalid, with nothing to fall back on, naming every problem', async () => {
    const s = store();
    s.push({ network: 'mainnet', addresses: ['SP000'], transfers: [{ asset: 'STX' }] });
    const failure = new LiveWatchConfig({ source: s.source, memo: s.memoStore }).current(listeners);
    await expect(failure).rejects.toThrow(/version v1[^]*\$\.addresses\[0\][^]*\$\.transfers\[0\]\.asset/);
    expect(s.memo()).toBeNull();
  });
});
