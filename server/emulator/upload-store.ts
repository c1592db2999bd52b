// The emulator's upload folder: files streamed to DATA_DIR/uploads (never held in memory), their
// type decided from their first bytes (not their name), kept 7 days. The folder is bounded: each
// person's uploads per day (UPLOAD_QUOTA_MB_PER_DAY, server/http/upload-quota.ts) and everything kept
// (UPLOAD_DISK_MAX_MB) are charged chunk by chunk as files stream in; expired files are swept at
// start and every hour. The emulator's own upload URLs are read from disk when a task names them, so
// upload → create → result works offline.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { BOUNDS } from '../../src/api/schemas';
import {
  MEDIA_TYPE_BY_EXT,
  sniffImageFormat,
  sniffMediaType,
  SNIFF_BYTES,
  type ImageFormat,
  type MediaType,
} from '../../src/api/media-type';
import {
  DEFAULT_UPLOAD_DISK_MAX_MB,
  UploadQuota,
  type UploadAllowance,
  type UploadTallies,
} from '../http/upload-quota';
import { DownloadError } from './downloads';
import { safeFileName } from './upload-file-name';

/** Where the emulator serves its uploads back (./uploads.ts), under its own origin. */
export const UPLOAD_MEDIA_PREFIX = '/emulator/uploads/';
/** Result links on the provider are kept about 7 days; uploads here too. */
export const UPLOAD_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

const FILE_NAME = /^([0-9a-f]{32})\.([a-z0-9]{3,4})$/;

interface StoredUpload {
  path: string;
  size: number;
  type: MediaType;
}

/** What became of one upload: kept (with the name to give back), or refused with the answer to send. */
export type UploadOutcome =
  | { ok: true; id: string; type: MediaType; size: number; fileName: string }
  | { ok: false; status: 400 | 413 | 429 | 507; code: number; message: string; retryAfterSeconds?: number };
export type UploadRefusal = Extract<UploadOutcome, { ok: false }>;

export const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const HOUR_MS = 60 * 60 * 1000;

export const diskFull = (max: number) =>
  `The console's upload storage is full (${megabytes(max)} of files, each kept 7 days). ` +
  'Try again later, or paste a public URL.';

interface UploadLimits {
  /** UPLOAD_DISK_MAX_MB in bytes: everything kept in the folder, uploads in progress included. */
  diskMaxBytes?: number;
  /** UPLOAD_QUOTA_MB_PER_DAY in bytes: what one person may upload per day. */
  quotaBytesPerDay?: number;
  /** Where the bytes per person per day are counted (in memory when unset). */
  tallies?: UploadTallies;
}

export class UploadStore {
  readonly dir: string;
  readonly diskMaxBytes: number;
  /** Per person per day; the route opens one allowance per upload for the request's creator. */
  readonly quota: UploadQuota;
  private ready: Promise<void> | undefined;
  private scanned: Promise<unknown> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The folder's files and their sizes, as last seen or written: the disk limit's account. */
  private readonly files = new Map<string, number>();
  private storedBytes = 0;
  /** Bytes of uploads still streaming (their `.part` files), charged chunk by chunk. */
  private pendingBytes = 0;
  private readonly inFlight = new Set<string>();

  constructor(
    dataDir: string,
    readonly maxBytes: number,
    private readonly now: () => number,
    limits: UploadLimits = {},
  ) {
    this.dir = join(dataDir, 'uploads');
    this.diskMaxBytes = limits.diskMaxBytes ?? DEFAULT_UPLOAD_DISK_MAX_MB * 1024 * 1024;
    this.quota = new UploadQuota(limits.quotaBytesPerDay, now, limits.tallies);
  }

  /** Bytes the folder holds or is being written, as the disk limit counts them. */
  usedBytes(): number {
    return this.storedBytes + this.pendingBytes;
  }

  private remember(name: string, size: number): void {
    this.storedBytes += size - (this.files.get(name) ?? 0);
    this.files.set(name, size);
  }

  private forget(name: string): void {
    this.storedBytes -= this.files.get(name) ?? 0;
    this.files.delete(name);
  }

  /** Sweeps now (counting what a previous run left) and every hour until stopSweeping. */
  startSweeping(): void {
    void this.firstSweep();
    this.timer ??= setInterval(() => void this.sweep().catch(() => undefined), HOUR_MS);
    // A timer must not keep a process (or a test run) alive.
    this.timer.unref?.();
  }

  stopSweeping(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The first sweep counts the folder: the disk limit knows what is there before any upload. */
  private firstSweep(): Promise<unknown> {
    this.scanned ??= this.sweep().catch(() => 0);
    return this.scanned;
  }

  private ensureDir(): Promise<void> {
    this.ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 }).then(() => undefined);
    return this.ready;
  }

  /** The stored file behind `<id>.<ext>`, when it exists and is younger than 7 days. */
  async find(fileName: string): Promise<StoredUpload | undefined> {
    const match = FILE_NAME.exec(fileName);
    const type = match && MEDIA_TYPE_BY_EXT.get(match[2]!);
    if (!type) return undefined;
    const path = join(this.dir, fileName);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    if (this.now() - info.mtimeMs > UPLOAD_MAX_AGE_MS) {
      await rm(path, { force: true });
      this.forget(fileName);
      return undefined;
    }
    return { path, size: info.size, type };
  }

  /**
   * Removes uploads older than 7 days and parts of uploads that never finished (untouched for an
   * hour, from an earlier run), and brings the disk limit's account in line with the folder.
   */
  async sweep(): Promise<number> {
    const known = new Set(this.files.keys());
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const present = new Set(names);
    for (const name of known) if (!present.has(name)) this.forget(name);
    let removed = 0;
    for (const name of names) {
      if (this.inFlight.has(name)) continue; // charged as it streams, not counted here
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) continue;
      const stalePart = name.endsWith('.part') && this.now() - info.mtimeMs > HOUR_MS;
      if (stalePart || this.now() - info.mtimeMs > UPLOAD_MAX_AGE_MS) {
        await rm(path, { force: true });
        this.forget(name);
        removed += 1;
      } else if (!this.files.has(name)) this.remember(name, info.size);
    }
    return removed;
  }

  /**
   * Writes one file stream to disk as it arrives. The type is judged from the first bytes; an
   * unknown type or a size over the limit stops writing at once (the rest is only drained).
   */
  async save(stream: Readable, originalName: string, allowance?: UploadAllowance): Promise<UploadOutcome> {
    await this.firstSweep();
    await this.ensureDir();
    const id = randomUUID().replaceAll('-', '');
    const partName = `${id}.part`;
    const upload = new IncomingUpload(
      join(this.dir, partName),
      (bytes) => (this.pendingBytes += bytes),
      allowance,
    );
    let kept = false;
    this.inFlight.add(partName);
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (upload.refusal) continue; // drain: the answer waits for the end of the body
        await this.takeChunk(upload, chunk);
      }
      if (!upload.refusal && !upload.type) upload.judgeShortFile();
      if (upload.refusal) {
        await upload.partClosed;
        await rm(upload.partPath, { force: true });
        return upload.refusal;
      }
      await upload.endPart();
      const type = upload.type!;
      const finalName = `${id}.${type.ext}`;
      await rename(upload.partPath, join(this.dir, finalName));
      this.remember(finalName, upload.size);
      kept = true;
      return { ok: true, id: finalName, type, size: upload.size, fileName: safeFileName(originalName, type) };
    } catch (error) {
      await upload.destroyPart();
      await rm(upload.partPath, { force: true });
      throw error;
    } finally {
      this.inFlight.delete(partName);
      await upload.settle(kept);
    }
  }

  private limitFor(media: MediaType | undefined): number {
    return media?.kind === 'image' ? Math.min(BOUNDS.referenceImageMaxBytes, this.maxBytes) : this.maxBytes;
  }

  /** Charges one chunk and writes it, or refuses the upload (too large, over a quota, unknown type). */
  private async takeChunk(upload: IncomingUpload, chunk: Buffer): Promise<void> {
    upload.size += chunk.byteLength;
    if (upload.size > this.limitFor(upload.type)) {
      return upload.refuse(
        413,
        413,
        upload.type?.kind === 'image'
          ? `The image is larger than ${megabytes(this.limitFor(upload.type))}`
          : `The file is larger than ${megabytes(this.maxBytes)}`,
      );
    }
    // Every chunk is charged before it is kept: to its person's day, then to the folder.
    const overQuota = await upload.allowance?.take(chunk.byteLength);
    if (overQuota)
      return upload.refuse(
        overQuota.status,
        overQuota.status,
        overQuota.message,
        overQuota.retryAfterSeconds,
      );
    if (this.usedBytes() + chunk.byteLength > this.diskMaxBytes)
      return upload.refuse(507, 507, diskFull(this.diskMaxBytes));
    upload.charge(chunk.byteLength);
    if (upload.type) {
      if (upload.out && !upload.out.write(chunk)) await once(upload.out, 'drain');
      return;
    }
    upload.head = concatBytes(upload.head, chunk);
    if (upload.head.length < SNIFF_BYTES) return;
    upload.type = sniffMediaType(upload.head);
    if (!upload.type) return upload.refuse(400, 100007, UNSUPPORTED_TYPE);
    if (upload.size > this.limitFor(upload.type))
      return upload.refuse(413, 413, `The image is larger than ${megabytes(this.limitFor(upload.type))}`);
    const out = upload.openPart();
    if (!out.write(upload.head)) await once(out, 'drain');
  }

  /**
   * A reference image named by one of this emulator's own upload URLs (same origin as the request)
   * is checked on disk instead of downloaded. Returns undefined for any other URL.
   */
  localImage(url: string, origin: string): Promise<ImageFormat> | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (parsed.origin !== origin || !parsed.pathname.startsWith(UPLOAD_MEDIA_PREFIX)) return undefined;
    return (async () => {
      const stored = await this.find(parsed.pathname.slice(UPLOAD_MEDIA_PREFIX.length));
      if (!stored) throw new DownloadError(url, 'HTTP 404');
      if (stored.size > BOUNDS.referenceImageMaxBytes) throw new DownloadError(url, 'larger than 20 MB');
      const handle = await open(stored.path, 'r');
      try {
        const { buffer, bytesRead } = await handle.read(new Uint8Array(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
        const format = sniffImageFormat(buffer.subarray(0, bytesRead));
        if (!format) throw new DownloadError(url, 'not a supported image (JPG, JPEG, PNG, BMP, WebP or GIF)');
        return format;
      } finally {
        await handle.close();
      }
    })();
  }
}

const UNSUPPORTED_TYPE =
  'Unsupported file type: send a JPG, PNG, BMP, WebP or GIF image or an MP4, MOV or WebM video';

function concatBytes(head: Uint8Array, chunk: Uint8Array) {
  const joined = new Uint8Array(head.length + chunk.length);
  joined.set(head);
  joined.set(chunk, head.length);
  return joined;
}

/**
 * One upload as it streams in: its first bytes (until its type is known), its size, its part file,
 * and what it has been charged to the folder (`pending`) and to its person's day (`allowance`).
 */
class IncomingUpload {
  out: WriteStream | undefined;
  head = new Uint8Array(0);
  type: MediaType | undefined;
  size = 0;
  refusal: UploadRefusal | undefined;
  /** A write that failed on its own (a full disk), not because a refusal stopped the file. */
  private writeError: Error | undefined;
  /** This upload's share of the store's pending bytes. */
  private pending = 0;
  /** The day's bytes being given back: the answer waits for them, so the next upload sees them. */
  private readonly givingBack: Promise<void>[] = [];
  /**
   * Resolves once a destroyed part file is closed: its writes in flight have failed by then (into
   * the listener below), and its file, opened maybe after the refusal, can be removed for good.
   */
  partClosed: Promise<void> = Promise.resolve();

  constructor(
    readonly partPath: string,
    /** Adds to (or, negative, takes from) the store's bytes of uploads still streaming. */
    private readonly chargeStore: (bytes: number) => void,
    readonly allowance: UploadAllowance | undefined,
  ) {}

  charge(bytes: number): void {
    this.chargeStore(bytes);
    this.pending += bytes;
  }

  /**
   * The part file. A refusal destroys it with a write maybe still in flight, which then fails with
   * ERR_STREAM_DESTROYED as an 'error' event: without a listener that is an uncaught exception, and
   * it stopped the whole server (an upload refused mid-stream, at the wrong moment).
   */
  openPart(): WriteStream {
    const stream = createWriteStream(this.partPath, { mode: 0o600 });
    stream.on('error', (error) => {
      if (!this.refusal) this.writeError ??= error;
    });
    this.out = stream;
    return stream;
  }

  refuse(status: UploadRefusal['status'], code: number, message: string, retryAfterSeconds?: number): void {
    this.refusal ??= { ok: false, status, code, message, retryAfterSeconds };
    void this.destroyPart();
    // Given back at once, not when the rest of the body has drained: an upload running beside
    // this one must not be refused for bytes that will never be kept.
    this.giveBack();
  }

  /** A file shorter than the sniffing window: judged on what there is. */
  judgeShortFile(): void {
    this.type = sniffMediaType(this.head);
    if (this.size === 0) this.refuse(400, 100001, 'file: the file is empty');
    else if (!this.type) this.refuse(400, 100007, UNSUPPORTED_TYPE);
    else this.openPart().write(this.head);
  }

  /** Waits for the part file to be written whole; a write that failed on its own is thrown. */
  async endPart(): Promise<void> {
    if (this.writeError) throw this.writeError;
    await new Promise<void>((resolve, reject) =>
      this.out!.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }

  /** Stops the part file at once (no more writes); resolves when it is closed. */
  destroyPart(): Promise<void> {
    const out = this.out;
    this.out = undefined;
    if (out && !out.closed) {
      this.partClosed = new Promise<void>((resolve) => out.once('close', () => resolve()));
      out.destroy();
    }
    return this.partClosed;
  }

  private giveBack(): void {
    this.chargeStore(-this.pending);
    this.pending = 0;
    if (this.allowance) this.givingBack.push(this.allowance.release());
  }

  /** Kept, the bytes move to the folder's account; refused or broken off, they are given back. */
  async settle(kept: boolean): Promise<void> {
    if (kept) {
      this.chargeStore(-this.pending);
      this.pending = 0;
      if (this.allowance) this.givingBack.push(this.allowance.keep());
    } else this.giveBack();
    await Promise.all(this.givingBack);
  }
}
