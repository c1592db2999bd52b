// Shared by the upload tests: files that start with a real type's bytes, the provider's success
// answer, and the set-up that sends every upload to the scripted FakeXhr.
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetUploadsAvailability } from '@/forms/uploads/uploads-availability';
import { FakeXhr } from './fake-xhr';

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The first bytes the sniffer (src/api/media-type.ts) recognises. */
export const HEADS = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13],
  gif: ascii('GIF89a'),
  mp4: [0, 0, 0, 24, ...ascii('ftypisom')],
};

/**
 * A file of `length` bytes starting with `head`. `size` pretends a larger file without allocating
 * it: the browser check reads only the size and the first bytes.
 */
export function mediaFile(
  head: number[],
  name: string,
  options: { length?: number; size?: number; type?: string } = {},
) {
  const bytes = new Uint8Array(options.length ?? 2000);
  bytes.set(head);
  const file = new File([bytes], name, options.type ? { type: options.type } : {});
  if (options.size) Object.defineProperty(file, 'size', { value: options.size });
  return file;
}

export const uploadSuccess = (url: string) => ({
  code: 0,
  success: true,
  message: { global: 'success' },
  result: { url },
});

/** Uploads go to FakeXhr; each test starts with no draft and uploads not yet known to be missing. */
export function withFakeUploads() {
  beforeEach(() => {
    localStorage.clear();
    FakeXhr.all = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    resetUploadsAvailability();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}
