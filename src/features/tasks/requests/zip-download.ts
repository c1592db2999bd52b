// A zip of tasks' result files, made by the server as it streams (POST /__console/tasks/zip) and
// saved in the browser under the name the server gave it: the request's, else the view's.
import { ZIP_NAME_MAX } from '@/api/bulk-rules';

/** The server's message of a refused request, else its status. */
async function refusal(response: Response): Promise<string> {
  const body = (await response.json().catch(() => undefined)) as { msg?: string } | undefined;
  return body?.msg ?? `HTTP ${response.status}`;
}

/** Saves bytes as a file through a link the browser downloads. */
function save(chunks: Uint8Array<ArrayBuffer>[], fileName: string) {
  const url = URL.createObjectURL(new Blob(chunks, { type: 'application/zip' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Reads the zip of `ids` as it streams, telling how many bytes came; then saves it. `name` is the
 * view's name, used when the tasks are not all from one request.
 */
export async function downloadZip(
  ids: string[],
  signal: AbortSignal,
  onBytes: (bytes: number) => void = () => {},
  name?: string,
) {
  const response = await fetch('/__console/tasks/zip', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ids, ...(name && { name: name.slice(0, ZIP_NAME_MAX) }) }),
    signal,
  });
  if (!response.ok || !response.body) throw new Error(await refusal(response));
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array<ArrayBuffer>);
    received += value.byteLength;
    onBytes(received);
  }
  const header = /filename\*=UTF-8''([^;]+)/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const fileName = header ? decodeURIComponent(header) : 'Tasks.zip';
  save(chunks, fileName);
  return { fileName, received };
}
