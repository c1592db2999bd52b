// @vitest-environment jsdom
// An admin sees what the team's storage holds and what is waiting, from /__console/storage.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatSize, StorageSection } from './storage-section';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Result storage', () => {
  it('shows the total, per kind and per person, and what waits or was lost', async () => {
    const fetchMock = vi.fn(async () =>
      Response.json({
        code: 0,
        data: {
          store: 's3',
          kept: { files: 3, bytes: 5 * 1024 * 1024 },
          byKind: [{ kind: 'image_to_video', files: 2, bytes: 4 * 1024 * 1024 }],
          byPerson: [{ creator: 'Ana Lima', files: 3, bytes: 5 * 1024 * 1024 }],
          byRole: [],
          states: { queued: 2, copying: 1, kept: 3, failed: 1, expired: 0 },
        },
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    render(<StorageSection />);
    const section = await screen.findByRole('region', { name: 'Result storage' });
    expect(await within(section).findByText(/kept in the S3 bucket, 3 files\./)).toHaveTextContent(
      /^5 MB kept in the S3 bucket/,
    );
    expect(section).toHaveTextContent('3 files waiting to be copied; 1 file could not be kept.');
    expect(within(section).getByRole('rowheader', { name: 'Image to video' })).toBeInTheDocument();
    expect(within(section).getByRole('rowheader', { name: 'Ana Lima' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/__console/storage', expect.anything());
  });

  it('says why when the server refuses', async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json({ code: 403, msg: 'Only admins can see the storage used' }, { status: 403 }),
    );
    render(<StorageSection />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Only admins can see the storage used');
  });

  it('writes sizes the way people read them', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(250 * 1024 * 1024)).toBe('250 MB');
    expect(formatSize(3 * 1024 ** 4)).toBe('3 TB');
  });
});
