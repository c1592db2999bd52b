// The callback log: one JSON object per line in DATA_DIR/callbacks.jsonl, only ever appended to,
// fsync'd before the receiver answers 200. A callback's id is its 1-based line number, so ids are
// stable across restarts without being written down, and SSE clients resume from them.
import { createHash } from 'node:crypto';
import { closeSync, fdatasync, fstatSync, mkdirSync, openSync, readSync, write, writeSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CallbackBody } from '../../src/api/schemas';

export const LOG_FILE = 'callbacks.jsonl';
const READ_CHUNK_BYTES = 1024 * 1024;

export interface StoredCallback {
  /** 1-based line number in the log. */
  id: number;
  /** ISO 8601, when the body was stored. */
  receivedAt: string;
  /** The body exactly as received (validated; unknown fields kept). */
  body: CallbackBody;
}

interface LogLine {
  receivedAt: string;
  key: string;
  body: CallbackBody;
}

export interface AppendResult {
  entry: StoredCallback;
  duplicate: boolean;
}

type Listener = (entry: StoredCallback) => void;

const writeAsync = promisify(write);
const fdatasyncAsync = promisify(fdatasync);

/** Key order must not make two deliveries of the same callback look different. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Idempotency key: task_id + status + the whole body. */
export function callbackKey(body: CallbackBody): string {
  const hash = createHash('sha256').update(canonical(body)).digest('hex');
  return `${body.data.task_id}|${body.data.status}|${hash}`;
}

export class CallbackStore {
  readonly path: string;
  private readonly fd: number;
  private readonly entries: StoredCallback[] = [];
  private readonly byKey = new Map<string, StoredCallback>();
  private readonly listeners = new Set<Listener>();
  /** Lines (complete or not) seen so far; the next line's id is lineCount + 1. */
  private lineCount = 0;
  /** Bytes of the file already read. */
  private offset = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.path = join(dataDir, LOG_FILE);
    this.fd = openSync(this.path, 'a+', 0o600);
    this.readNewLines();
    if (fstatSync(this.fd).size > this.offset) {
      // A crash mid-write left half a line; seal it so the next line starts clean. It was never
      // acknowledged, so the sender will deliver it again.
      writeSync(this.fd, '\n');
      this.readNewLines();
    }
  }

  get lastId(): number {
    return this.entries.at(-1)?.id ?? 0;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Stores the body unless the same callback is already stored; resolves once it is on disk. */
  append(body: CallbackBody): Promise<AppendResult> {
    const run = this.queue.then(() => this.appendNow(body));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Callbacks stored after `id`, oldest first. */
  since(id: number): StoredCallback[] {
    this.readNewLines();
    let start = this.entries.length;
    while (start > 0 && this.entries[start - 1]!.id > id) start--;
    return this.entries.slice(start);
  }

  /**
   * Newest first, `limit` callbacks older than `before` (all when absent) whose task id contains
   * `task`; `total` counts every match.
   */
  page(options: { before?: number; limit: number; task?: string }): {
    items: StoredCallback[];
    total: number;
  } {
    this.readNewLines();
    const { before, task } = options;
    const matching = task
      ? this.entries.filter((entry) => entry.body.data.task_id.includes(task))
      : this.entries;
    const older = before === undefined ? matching : matching.filter((entry) => entry.id < before);
    return { items: older.slice(-options.limit).reverse(), total: matching.length };
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    await this.queue;
    closeSync(this.fd);
  }

  private async appendNow(body: CallbackBody): Promise<AppendResult> {
    if (this.closed) throw new Error('The callback store is closed');
    this.readNewLines();
    const key = callbackKey(body);
    const existing = this.byKey.get(key);
    if (existing) return { entry: existing, duplicate: true };

    const line: LogLine = { receivedAt: new Date().toISOString(), key, body };
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`);
    let written = 0;
    while (written < bytes.length) {
      const { bytesWritten } = await writeAsync(this.fd, bytes, written, bytes.length - written);
      written += bytesWritten;
    }
    await fdatasyncAsync(this.fd);
    // Read back rather than trusting our own count: another process may share this DATA_DIR.
    this.readNewLines();
    const entry = this.byKey.get(key);
    if (!entry) throw new Error('The stored callback could not be read back');
    for (const listener of this.listeners) listener(entry);
    return { entry, duplicate: false };
  }

  /**
   * Indexes complete lines written since the last read (by us or by another process), reading a
   * chunk at a time: a log of any size never becomes one buffer or one string.
   */
  private readNewLines(): void {
    if (this.closed) return;
    const size = fstatSync(this.fd).size;
    let pending = Buffer.alloc(0);
    let position = this.offset;
    while (position < size) {
      const chunk = Buffer.alloc(Math.min(READ_CHUNK_BYTES, size - position));
      const n = readSync(this.fd, chunk, 0, chunk.length, position);
      if (n === 0) break;
      position += n;
      pending = pending.length ? Buffer.concat([pending, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let start = 0;
      for (let end = pending.indexOf(0x0a, start); end >= 0; end = pending.indexOf(0x0a, start)) {
        this.lineCount++;
        this.index(pending.subarray(start, end).toString('utf8'), this.lineCount);
        this.offset += end - start + 1;
        start = end + 1;
      }
      pending = pending.subarray(start);
    }
  }

  private index(text: string, id: number): void {
    if (!text.trim()) return;
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      console.warn(`[callbacks] ${this.path}:${id} is not valid JSON; skipped`);
      return;
    }
    if (!line?.body?.data || typeof line.key !== 'string' || this.byKey.has(line.key)) return;
    const entry: StoredCallback = { id, receivedAt: line.receivedAt, body: line.body };
    this.entries.push(entry);
    this.byKey.set(line.key, entry);
  }
}
