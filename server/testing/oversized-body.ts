// An attacker's body: chunked (no Content-Length), far larger than any limit, produced only as the
// server pulls it, counting what it pulled. A server that reads it whole before checking pulls it
// all; one that cuts it off while it streams stops just past its limit.
export function oversizedChunkedBody(totalBytes = 64 * 1024 * 1024, chunkBytes = 64 * 1024) {
  const chunk = new Uint8Array(chunkBytes).fill(0x61);
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= totalBytes) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return {
    /** For `fetch`/`app.request` init: a stream body needs `duplex: 'half'`. */
    init: { method: 'POST', body: stream, duplex: 'half' } as RequestInit,
    pulledBytes: () => pulled,
  };
}
