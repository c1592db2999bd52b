// The uploads of one form: each file's state and progress per slot (a row or a field), the names of
// the files that became URLs, and whether the form must wait. A small external store so progress
// events re-render the one row they concern, not the whole form. The upload code itself (XHR,
// envelope schema, sniffer) loads on the first file, not with the form.
import type { UploadAccept } from './upload-accept';
import type { UploadJob } from './upload-job';
import { markUploadsUnavailable } from './uploads-availability';

interface Internal {
  job: UploadJob;
  accept: UploadAccept;
  onDone: (url: string) => void;
  controller?: AbortController;
}

let nextId = 1;

export interface UploadedFile {
  name: string;
  size: number;
  /** The type the browser gave the file (may be empty). */
  type: string;
}

export class UploadTracker {
  private items: Internal[] = [];
  private snapshot: readonly UploadJob[] = [];
  private readonly listeners = new Set<() => void>();
  /** Uploaded URL → the original file, for the history record and the row's file card. */
  private readonly files = new Map<string, UploadedFile>();
  private readonly holds = new Map<string, number>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  jobs = (): readonly UploadJob[] => this.snapshot;

  /** Uploads still running, which the form must wait for. */
  busyCount = (): number =>
    this.snapshot.filter((job) => job.state === 'checking' || job.state === 'uploading').length;

  /** The name of the file an uploaded URL came from (kept with the created tasks). */
  nameOf = (url: string): string | undefined => this.files.get(url.trim())?.name;

  /** The file an uploaded URL came from: its name, size and type, for the field's file card. */
  fileOf = (url: string): UploadedFile | undefined => this.files.get(url.trim());

  /** Checks the file and sends it; a new file for a slot replaces what that slot was doing. */
  start(slot: string, file: File, accept: UploadAccept, onDone: (url: string) => void): void {
    this.cancelSlot(slot);
    const job: UploadJob = {
      id: nextId++,
      slot,
      file,
      state: 'checking',
      loaded: 0,
      total: file.size,
      percent: 0,
      retryable: false,
    };
    const item: Internal = { job, accept, onDone };
    this.items = [...this.items, item];
    this.publish();
    void this.run(item, true);
  }

  retry(id: number): void {
    const item = this.items.find((entry) => entry.job.id === id);
    if (!item || item.job.state !== 'failed') return;
    this.patch(item, { state: 'uploading', loaded: 0, percent: 0, message: undefined, retryable: false });
    void this.run(item, false);
  }

  /** Cancels a running upload or forgets a refusal or failure. */
  dismiss(id: number): void {
    const item = this.items.find((entry) => entry.job.id === id);
    if (!item) return;
    item.controller?.abort();
    this.remove(item);
  }

  /**
   * A slot on screen. When its last holder lets go (the row was removed, the mode changed) its
   * upload is cancelled, a tick later: React's strict mode lets go and holds again at once.
   */
  hold(slot: string): () => void {
    this.holds.set(slot, (this.holds.get(slot) ?? 0) + 1);
    return () => {
      this.holds.set(slot, (this.holds.get(slot) ?? 1) - 1);
      setTimeout(() => {
        if (this.holds.get(slot)) return;
        this.holds.delete(slot);
        this.cancelSlot(slot);
      }, 0);
    };
  }

  cancelSlot(slot: string): void {
    for (const item of this.items.filter((entry) => entry.job.slot === slot)) this.dismiss(item.job.id);
  }

  private async run(item: Internal, check: boolean) {
    // The check, the XHR client and its envelope schema load with the first file, not the form.
    const { runUpload } = await import('./upload-run');
    await runUpload(item.job.file, item.accept, check, {
      alive: () => this.items.includes(item),
      setController: (controller) => (item.controller = controller),
      patch: (change) => this.patch(item, change),
      done: (url) => {
        const { name, size, type } = item.job.file;
        this.files.set(url, { name, size, type });
        this.remove(item);
        item.onDone(url);
      },
      unavailable: () => {
        markUploadsUnavailable();
        this.remove(item);
      },
    });
  }

  private patch(item: Internal, change: Partial<UploadJob>) {
    item.job = { ...item.job, ...change };
    this.publish();
  }

  private remove(item: Internal) {
    this.items = this.items.filter((entry) => entry !== item);
    this.publish();
  }

  private publish() {
    this.snapshot = this.items.map((entry) => entry.job);
    for (const listener of this.listeners) listener();
  }
}
