// @vitest-environment jsdom
// The file controls' words follow the device: "drop or paste" where a mouse can drag files, plain
// choosing on a touch device (`(pointer: coarse)` or `(hover: none)`), changing as the device does.
import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TOUCH_QUERY } from '@/components/ui/use-media-query';
import { renderWithClient, stubFetch } from '@/testing/form-test-utils';
import { withFakeUploads } from '@/testing/upload-test-utils';
import { ImageGenerateForm } from '@/features/image-generate/form/image-generate-form';
import { VideoTranslateForm } from '@/features/video-translate/video-translate-form';

withFakeUploads();

/** A matchMedia whose touch query matches or not, and can change while the page is open. */
function stubMatchMedia(touch: boolean) {
  const listeners = new Set<() => void>();
  const state = { touch };
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query === TOUCH_QUERY && state.touch;
    },
    media: query,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  }));
  return {
    set(next: boolean) {
      state.touch = next;
      act(() => listeners.forEach((listener) => listener()));
    },
  };
}

describe('upload wording', () => {
  it('a mouse: the image rows and the video field say drop or paste', () => {
    stubMatchMedia(false);
    stubFetch();
    const { unmount } = renderWithClient(<ImageGenerateForm />);
    expect(screen.getByRole('button', { name: 'Upload images' })).toBeInTheDocument();
    expect(screen.getByText('or drop or paste them here')).toBeInTheDocument();
    unmount();
    renderWithClient(<VideoTranslateForm />);
    expect(screen.getByText(/or drop or paste it here/)).toBeInTheDocument();
  });

  it('a touch device: choosing from photos or files, no drop or paste', () => {
    stubMatchMedia(true);
    stubFetch();
    const { unmount } = renderWithClient(<ImageGenerateForm />);
    expect(screen.getByRole('button', { name: 'Upload images' })).toBeInTheDocument();
    expect(screen.getByText('from your photos or files')).toBeInTheDocument();
    expect(screen.queryByText(/drop|paste/)).toBeNull();
    unmount();
    renderWithClient(<VideoTranslateForm />);
    expect(screen.getByRole('button', { name: 'Upload video' })).toBeInTheDocument();
    expect(screen.getByText(/^from your files · /)).toBeInTheDocument();
    expect(screen.queryByText(/drop or paste/)).toBeNull();
  });

  it('follows the device when it changes (a mouse plugged into a tablet)', () => {
    const media = stubMatchMedia(true);
    stubFetch();
    renderWithClient(<ImageGenerateForm />);
    expect(screen.getByText('from your photos or files')).toBeInTheDocument();
    media.set(false);
    expect(screen.getByText('or drop or paste them here')).toBeInTheDocument();
  });
});
