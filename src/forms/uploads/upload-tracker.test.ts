// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { filesOfRequest } from '@/api/task-detail/request-files';
import { FakeXhr } from '@/testing/fake-xhr';
import { HEADS, mediaFile, uploadSuccess } from '@/testing/upload-test-utils';
import { IMAGE_ACCEPT, formatBytes, videoAccept, FRAME_ACCEPT } from './upload-accept';
import { refusalOf } from './upload-refusal';
import { UploadTracker } from './upload-tracker';
import { resetUploadsAvailability, useUploadsUnavailable } from './uploads-availability';
import { renderHook } from '@testing-library/react';

const { png: PNG_HEAD, gif: GIF_HEAD, mp4: MP4_HEAD } = HEADS;
const fileOf = (head: number[], name: string, length = 2000) => mediaFile(head, name, { length });
/** A file of `size` bytes without allocating them: only its size and first bytes are read. */
const hugeFile = (head: number[], name: string, size: number) => mediaFile(head, name, { length: 64, size });
const success = uploadSuccess;

describe('refusalOf', () => {
  it('lets a PNG through and refuses one over 20 MB, by size, before reading it', async () => {
    expect(await refusalOf(fileOf(PNG_HEAD, 'moodboard.png'), IMAGE_ACCEPT)).toBeUndefined();
    expect(await refusalOf(hugeFile(PNG_HEAD, 'huge.png', 25 * 1024 * 1024), IMAGE_ACCEPT)).toBe(
      'huge.png is 25 MB; images can be at most 20 MB. Nothing was sent.',
    );
  });

  it('judges by the bytes, not the name: text named .png is refused, a GIF named .txt passes', async () => {
    const text = new File(['Meeting notes, not an image.'], 'notes.png', { type: 'image/png' });
    expect(await refusalOf(text, IMAGE_ACCEPT)).toBe(
      'notes.png is not a JPG, JPEG, PNG, BMP, WebP or GIF image. Nothing was sent.',
    );
    expect(await refusalOf(fileOf(GIF_HEAD, 'animation.txt'), IMAGE_ACCEPT)).toBeUndefined();
  });

  it('keeps each field to its own types: frames take no GIF, the video field no image', async () => {
    expect(await refusalOf(fileOf(GIF_HEAD, 'a.gif'), FRAME_ACCEPT)).toBe(
      'a.gif is not a JPG, PNG or WebP image (its content is GIF). Nothing was sent.',
    );
    expect(await refusalOf(fileOf(PNG_HEAD, 'a.png'), videoAccept())).toMatch(
      /is not a MP4, MOV or WebM video/,
    );
    expect(await refusalOf(fileOf(MP4_HEAD, 'talk.mp4'), videoAccept())).toBeUndefined();
  });

  it('takes videos up to UPLOAD_MAX_MB', async () => {
    const accept = videoAccept(100 * 1024 * 1024);
    expect(await refusalOf(hugeFile(MP4_HEAD, 'talk.mp4', 100 * 1024 * 1024), accept)).toBeUndefined();
    expect(await refusalOf(hugeFile(MP4_HEAD, 'talk.mp4', 100 * 1024 * 1024 + 1), accept)).toMatch(
      /videos can be at most 100 MB/,
    );
  });

  it('formats sizes for people', () => {
    expect([formatBytes(512), formatBytes(171 * 1024), formatBytes(2.5 * 1024 * 1024)]).toEqual([
      '512 B',
      '171 KB',
      '2.5 MB',
    ]);
  });
});

describe('UploadTracker', () => {
  // The tracker loads its upload code on the first file; loading it here keeps that cold import (seconds
  // on a busy CI machine) out of the first test's wait for its request.
  beforeAll(async () => {
    await import('./upload-run');
  });
  beforeEach(() => {
    FakeXhr.all = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    resetUploadsAvailability();
  });
  afterEach(() => vi.unstubAllGlobals());

  /** Starts an upload and waits until its request is out. */
  async function started(tracker: UploadTracker, slot = 'row-1', name = 'moodboard.png') {
    const done = vi.fn();
    const before = FakeXhr.all.length;
    tracker.start(slot, fileOf(PNG_HEAD, name), IMAGE_ACCEPT, done);
    await vi.waitFor(() => expect(FakeXhr.all.length).toBe(before + 1));
    return { done, xhr: FakeXhr.all.at(-1)! };
  }

  it('reports progress in percent and bytes, then fills the field and remembers the name', async () => {
    const tracker = new UploadTracker();
    const { done, xhr } = await started(tracker);
    expect(tracker.busyCount()).toBe(1);
    xhr.progress(500, 2000);
    expect(tracker.jobs()[0]).toMatchObject({ state: 'uploading', loaded: 500, total: 2000, percent: 25 });
    xhr.answer(200, success('https://cdn.example.com/u/1.png'));
    await vi.waitFor(() => expect(done).toHaveBeenCalledWith('https://cdn.example.com/u/1.png'));
    expect(tracker.jobs()).toEqual([]);
    expect(tracker.busyCount()).toBe(0);
    expect(tracker.nameOf('https://cdn.example.com/u/1.png')).toBe('moodboard.png');
    expect(
      filesOfRequest(
        { reference_images: ['https://x.example/a.png', 'https://cdn.example.com/u/1.png'] },
        tracker.nameOf,
      ),
    ).toEqual([
      { field: 'reference_images[1]', url: 'https://cdn.example.com/u/1.png', name: 'moodboard.png' },
    ]);
  });

  it('cancels: the request is aborted, nothing is filled and the form no longer waits', async () => {
    const tracker = new UploadTracker();
    const { done, xhr } = await started(tracker);
    tracker.dismiss(tracker.jobs()[0]!.id);
    expect(xhr.aborted).toBe(true);
    expect(tracker.busyCount()).toBe(0);
    expect(done).not.toHaveBeenCalled();
  });

  it('offers a retry after a network error, and the retry sends the file again', async () => {
    const tracker = new UploadTracker();
    const { done, xhr } = await started(tracker);
    xhr.onerror?.();
    await vi.waitFor(() => expect(tracker.jobs()[0]).toMatchObject({ state: 'failed', retryable: true }));
    expect(tracker.busyCount()).toBe(0);
    tracker.retry(tracker.jobs()[0]!.id);
    await vi.waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    FakeXhr.all[1]!.answer(200, success('https://cdn.example.com/u/2.png'));
    await vi.waitFor(() => expect(done).toHaveBeenCalledWith('https://cdn.example.com/u/2.png'));
  });

  it('offers no retry for a refusal by the service', async () => {
    const tracker = new UploadTracker();
    const { xhr } = await started(tracker);
    xhr.answer(200, { code: 400, success: false, message: 'file type not allowed' });
    await vi.waitFor(() =>
      expect(tracker.jobs()[0]).toMatchObject({
        state: 'failed',
        retryable: false,
        message: 'file type not allowed',
      }),
    );
  });

  it('learns from a 404 without a business code that uploads are not available, for the session', async () => {
    const tracker = new UploadTracker();
    const unavailable = renderHook(() => useUploadsUnavailable());
    expect(unavailable.result.current).toBe(false);
    const { xhr } = await started(tracker);
    xhr.answer(404, 'Not Found');
    await vi.waitFor(() => expect(unavailable.result.current).toBe(true));
    expect(tracker.jobs()).toEqual([]);
    expect(sessionStorage.getItem('media-console:uploads-unavailable')).toBe('1');
  });

  it('runs several at once, each in its slot; a new file for a slot replaces its upload', async () => {
    const tracker = new UploadTracker();
    const first = await started(tracker, 'a', 'one.png');
    await started(tracker, 'b', 'two.png');
    expect(tracker.busyCount()).toBe(2);
    await started(tracker, 'a', 'three.png');
    expect(first.xhr.aborted).toBe(true);
    expect(tracker.jobs().map((job) => [job.slot, job.file.name])).toEqual([
      ['b', 'two.png'],
      ['a', 'three.png'],
    ]);
  });

  it('cancels a slot whose last holder lets go, but not one held again at once (strict mode)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const tracker = new UploadTracker();
      const release = tracker.hold('a');
      const { xhr } = await started(tracker, 'a');
      release();
      const again = tracker.hold('a');
      vi.runAllTimers();
      expect(xhr.aborted).toBe(false);
      again();
      vi.runAllTimers();
      expect(xhr.aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
