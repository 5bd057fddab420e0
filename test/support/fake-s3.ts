// A small S3 on 127.0.0.1 speaking the REST API the watch config uses: versioned GET/HEAD (If-None-Match
// answers 304), PUT (If-None-Match: * answers 412 when the key exists), CopyObject from a version, and
// ListObjectVersions. Path-style requests only (the SDK uses them for an IP endpoint). Every request is
// recorded, so a test can count what a run cost.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredVersion {
  versionId: string;
  etag: string;
  body: Buffer;
  lastModified: Date;
}

export interface FakeS3 {
  endpoint: string;
  requests: { method: string; path: string; status: number }[];
  /** Versions of one key, oldest first. */
  versions(bucket: string, key: string): StoredVersion[];
  /** Stores a new version directly (as another writer would), returning it. */
  put(bucket: string, key: string, body: string): StoredVersion;
  /** Answers every request with this status until cleared (e.g. 403 for a missing permission). */
  failWith(status: number | undefined, code?: string): void;
  close(): Promise<void>;
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startFakeS3(): Promise<FakeS3> {
  const buckets = new Map<string, Map<string, StoredVersion[]>>();
  const requests: FakeS3['requests'] = [];
  let counter = 0;
  let failure: { status: number; code: string } | undefined;

  const versionsOf = (bucket: string, key: string) => {
    let keys = buckets.get(bucket);
    if (!keys) buckets.set(bucket, (keys = new Map()));
    let list = keys.get(key);
    if (!list) keys.set(key, (list = []));
    return list;
  };
  const put = (bucket: string, key: string, body: Buffer): StoredVersion => {
    counter += 1;
    const version = {
      versionId: `v${String(counter).padStart(4, '0')}-${createHash('sha1').update(String(counter)).digest('hex').slice(0, 8)}`,
      etag: `"${createHash('md5').update(body).digest('hex')}"`,
      body,
      lastModified: new Date(Date.UTC(2026, 0, 1) + counter * 60_000),
    };
    versionsOf(bucket, key).push(version);
    return version;
  };

  function error(res: ServerResponse, status: number, code: string) {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(xml(`<Error><Code>${code}</Code><Message>${code}</Message></Error>`));
  }

  function listVersions(res: ServerResponse, bucket: string, prefix: string) {
    const keys = buckets.get(bucket);
    if (!keys) return error(res, 404, 'NoSuchBucket');
    const entries = [...keys.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .flatMap(([key, list]) =>
        list
          .map((v, i) => ({ key, v, latest: i === list.length - 1 }))
          .reverse()
          .map(
            ({ key, v, latest }) =>
              `<Version><Key>${escape(key)}</Key><VersionId>${v.versionId}</VersionId><IsLatest>${latest}</IsLatest><LastModified>${v.lastModified.toISOString()}</LastModified><ETag>${escape(v.etag)}</ETag><Size>${v.body.length}</Size><StorageClass>STANDARD</StorageClass></Version>`,
          ),
      );
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(
      xml(
        `<ListVersionsResult><Name>${bucket}</Name><Prefix>${escape(prefix)}</Prefix><IsTruncated>false</IsTruncated>${entries.join('')}</ListVersionsResult>`,
      ),
    );
  }

  function handle(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    if (failure) return error(res, failure.status, failure.code);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const [, bucket = '', ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    if (req.method === 'GET' && !key && url.searchParams.has('versions')) return listVersions(res, bucket, url.searchParams.get('prefix') ?? '');
    const list = versionsOf(bucket, key);
    if (req.method === 'PUT') {
      const copySource = req.headers['x-amz-copy-source'];
      if (typeof copySource === 'string') {
        const source = new URL(copySource.startsWith('/') ? copySource : `/${copySource}`, 'http://localhost');
        const [, sourceBucket = '', ...sourceRest] = source.pathname.split('/');
        const from = versionsOf(sourceBucket, decodeURIComponent(sourceRest.join('/'))).find((v) => v.versionId === source.searchParams.get('versionId'));
        if (!from) return error(res, 404, 'NoSuchVersion');
        const copied = put(bucket, key, from.body);
        res.writeHead(200, { 'content-type': 'application/xml', 'x-amz-version-id': copied.versionId });
        return res.end(
          xml(`<CopyObjectResult><ETag>${escape(copied.etag)}</ETag><LastModified>${copied.lastModified.toISOString()}</LastModified></CopyObjectResult>`),
        );
      }
      if (req.headers['if-none-match'] === '*' && list.length > 0) return error(res, 412, 'PreconditionFailed');
      const stored = put(bucket, key, body);
      res.writeHead(200, { etag: stored.etag, 'x-amz-version-id': stored.versionId });
      return res.end();
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const wanted = url.searchParams.get('versionId');
      const version = wanted ? list.find((v) => v.versionId === wanted) : list.at(-1);
      if (!version) return req.method === 'HEAD' ? (res.writeHead(404), res.end()) : error(res, 404, wanted ? 'NoSuchVersion' : 'NoSuchKey');
      const headers = { etag: version.etag, 'x-amz-version-id': version.versionId, 'last-modified': version.lastModified.toUTCString() };
      if (req.headers['if-none-match'] === version.etag) {
        res.writeHead(304, headers);
        return res.end();
      }
      res.writeHead(200, { ...headers, 'content-type': 'application/json', 'content-length': version.body.length });
      return res.end(req.method === 'HEAD' ? undefined : version.body);
    }
    error(res, 405, 'MethodNotAllowed');
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.on('finish', () => requests.push({ method: req.method ?? '', path: req.url ?? '', status: res.statusCode }));
      handle(req, res, Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    versions: (bucket, key) => [...versionsOf(bucket, key)],
    put: (bucket, key, text) => put(bucket, key, Buffer.from(text, 'utf8')),
    failWith(status, code = 'AccessDenied') {
      failure = status === undefined ? undefined : { status, code };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
