// The benchmark's callback senders: 32 concurrent senders in a worker thread, over keep-alive
// connections (as a real service keeps its connections), each POSTing its next callback as soon as
// the previous one is acknowledged. In a thread of its own, the client's cost does not count as the
// server's: the service runs on other machines.
import { Worker } from 'node:worker_threads';

const SENDERS_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, prefix, total, senders } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: senders });
const target = new URL(url);
function post(body) {
  return new Promise((resolve, reject) => {
    const request = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname,
      method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => { response.resume(); response.on('end', () => resolve(response.statusCode)); });
    request.on('error', reject);
    request.end(body);
  });
}
let next = 0;
const started = performance.now();
Promise.all(Array.from({ length: senders }, async () => {
  while (next < total) {
    const i = next++;
    const status = await post(JSON.stringify({ code: 0, msg: 'ok', task_type: 'image_generate',
      data: { task_id: prefix + i, status: 'SUCCEEDED', image_url: 'https://media.example.com/i.png' } }));
    if (status !== 200) throw new Error('callback ' + i + ': HTTP ' + status);
  }
})).then(() => { agent.destroy(); parentPort.postMessage({ seconds: (performance.now() - started) / 1000 }); },
  (error) => parentPort.postMessage({ error: String(error) }));
`;

/** Callbacks per second, every one acknowledged (so committed) before the sender's next. */
export function sendCallbacks(url: string, prefix: string, total = 3200, senders = 32): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SENDERS_CODE, { eval: true, workerData: { url, prefix, total, senders } });
    worker.once('message', (message: { seconds?: number; error?: string }) => {
      void worker.terminate();
      if (message.error) reject(new Error(message.error));
      else resolve(total / message.seconds!);
    });
    worker.once('error', reject);
  });
}
