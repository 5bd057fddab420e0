// A local SNS endpoint for the bundled handler in a child process (AWS_ENDPOINT_URL_SNS): it accepts every
// PublishBatch entry and counts them. The SDK speaks SNS's query protocol (a form body, an XML answer); the
// answer carries only what the client reads. The tests mock the SDK client instead, which a child process
// running the real bundle cannot share.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSns {
  endpoint: string;
  published(): number;
  close(): Promise<void>;
}

const xmlText = (text: string) => text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);

export async function startFakeSns(): Promise<FakeSns> {
  let published = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      if (form.get('Action') !== 'PublishBatch') {
        response.writeHead(400, { 'content-type': 'text/xml' }).end(`<ErrorResponse><Error><Code>InvalidAction</Code></Error></ErrorResponse>`);
        return;
      }
      const ids = [...form.entries()].filter(([name]) => /^PublishBatchRequestEntries\.member\.\d+\.Id$/.test(name)).map(([, id]) => id);
      published += ids.length;
      const members = ids.map((id, i) => `<member><Id>${xmlText(id)}</Id><MessageId>m-${published}-${i}</MessageId></member>`).join('');
      response
        .writeHead(200, { 'content-type': 'text/xml' })
        .end(
          `<PublishBatchResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishBatchResult><Successful>${members}</Successful><Failed/></PublishBatchResult>` +
            '<ResponseMetadata><RequestId>bench</RequestId></ResponseMetadata></PublishBatchResponse>',
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    published: () => published,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
