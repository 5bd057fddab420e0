// A body a test server streams without end: the same chunk written again as fast as the client reads it
// (backpressure), until a limit or the client hangs up. What was written tells whether the client stopped
// reading at its bound or read on.
import type { ServerResponse } from 'node:http';

export function pumpBody(res: ServerResponse, chunk: Buffer, limitBytes: number): { written: () => number } {
  let written = 0;
  const pump = () => {
    while (written < limitBytes && !res.destroyed) {
      written += chunk.byteLength;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
  return { written: () => written };
}
