// One result file fetched into the team's store: through the outbound guard, refused past the size
// cap, abandoned when it stalls, hashed (SHA-256) and its type sniffed from its first bytes as it
// streams; nothing is held in memory but a chunk.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { Readable, Transform } from 'node:stream';
import { BlockedTargetError, isPublicAddress } from '../proxy/outbound';
import type { KeptFile, ResultCopyRow } from './copy-rows';
import { sniff, SNIFF_BYTES } from './sniff';
import { keyFor, RESULT_ROLES, type ResultRole, type ResultStore } from './store';

/** A failure worth another attempt later (the network, a 5xx, a stall) or not (a refused address, a 404). */
export class CopyError extends Error {
  constructor(
    message: string,
    readonly final: boolean,
  ) {
    super(message);
  }
}

export interface FetchLimits {
  /** The outbound guard (server/proxy/outbound.ts). */
  fetch: typeof fetch;
  /** Largest file copied, in bytes. */
  maxBytes: number;
  /** A copy that receives nothing for this long is abandoned. */
  idleMs: number;
}

const isResultRole = (role: string): role is ResultRole => (RESULT_ROLES as readonly string[]).includes(role);

/** Literal loopback, private, link-local (169.254.169.254, the cloud metadata address) and the like. */
function refusedLiteral(url: URL): boolean {
  // Stryker disable next-line Regex: a URL's hostname has both brackets (IPv6) or neither
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}

/** The service's answer for the row's link, with a body of at most `maxBytes` declared. */
async function fetchSource(row: ResultCopyRow, abort: AbortController, limits: FetchLimits) {
  let url: URL;
  try {
    url = new URL(row.source_url);
  } catch {
    throw new CopyError('the result link is not a URL', true);
  }
  let response: Response;
  try {
    response = await limits.fetch(url, { signal: abort.signal, headers: { accept: '*/*' } });
  } catch (error) {
    if (abort.signal.aborted) throw abort.signal.reason ?? error;
    if (error instanceof BlockedTargetError && refusedLiteral(url))
      throw new CopyError('refused by the outbound guard: not a public address', true);
    throw new CopyError('the file could not be fetched', false);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    const retry = response.status >= 500 || response.status === 408 || response.status === 429;
    throw new CopyError(`the service answered HTTP ${response.status}`, !retry);
  }
  if (Number(response.headers.get('content-length')) > limits.maxBytes) {
    await response.body.cancel().catch(() => undefined);
    throw new CopyError(`larger than the ${limits.maxBytes}-byte limit`, true);
  }
  return response.body;
}

/**
 * The file's bytes as they pass: counted against `maxBytes`, hashed, their first SNIFF_BYTES kept,
 * and the stall timer restarted on each chunk (`stop` clears it).
 */
function measuringStream(abort: AbortController, limits: FetchLimits) {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let size = 0;
  let idle: NodeJS.Timeout | undefined;
  const stall = () => {
    clearTimeout(idle);
    idle = setTimeout(() => abort.abort(new CopyError('the transfer stalled', false)), limits.idleMs);
  };
  stall();
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      stall();
      size += chunk.length;
      if (size > limits.maxBytes)
        return done(new CopyError(`larger than the ${limits.maxBytes}-byte limit`, true));
      hash.update(chunk);
      const before = size - chunk.length;
      // Stryker disable next-line EqualityOperator: at exactly SNIFF_BYTES the slice is empty, as skipping it
      if (before < SNIFF_BYTES) head.push(chunk.subarray(0, SNIFF_BYTES - before));
      done(null, chunk);
    },
  });
  return {
    stream,
    stop: () => clearTimeout(idle),
    measured: () => ({ size, sha256: hash.digest('hex'), head: Buffer.concat(head) }),
  };
}

/** Fetches the row's file into the store under its key; a CopyError (or the abort's reason) if not. */
export async function fetchIntoStore(
  row: ResultCopyRow,
  abort: AbortController,
  store: Promise<ResultStore>,
  limits: FetchLimits,
): Promise<KeptFile> {
  if (!isResultRole(row.role)) throw new CopyError(`unknown file role ${row.role}`, true);
  const body = await fetchSource(row, abort, limits);
  const measuring = measuringStream(abort, limits);
  const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream, { signal: abort.signal });
  source.on('error', (error) => measuring.stream.destroy(error));
  const key = keyFor(row.task_id, row.role, row.idx);
  try {
    await (await store).put(key, source.pipe(measuring.stream), 'application/octet-stream');
  } catch (error) {
    if (abort.signal.aborted) throw abort.signal.reason ?? error;
    if (error instanceof CopyError) throw error;
    throw new CopyError(`the copy was cut short (${(error as Error).message})`, false);
  } finally {
    measuring.stop();
  }
  if (abort.signal.aborted) throw abort.signal.reason;
  const { size, sha256, head } = measuring.measured();
  return { key, size, sha256, contentType: sniff(head, row.role).type };
}
