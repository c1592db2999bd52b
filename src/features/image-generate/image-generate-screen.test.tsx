// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithClient, stubFetch } from '@/testing/form-test-utils';
import { ImageGenerateScreen } from './image-generate-screen';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Create image, the first screen', () => {
  it('paints its skeleton first, then the form; back on the screen later, the form at once', async () => {
    stubFetch();
    const first = renderWithClient(<ImageGenerateScreen />);
    // The first render asks for nothing: the form's code is requested after the paint.
    expect(screen.getByRole('status')).toHaveTextContent('Loading the image form…');
    expect(await screen.findByRole('textbox', { name: 'Prompt' })).toBeVisible();
    first.unmount();

    // Another screen and back: the code is there, so no skeleton frame and no jump.
    renderWithClient(<ImageGenerateScreen />);
    expect(screen.getByRole('textbox', { name: 'Prompt' })).toBeVisible();
    expect(screen.queryByText('Loading the image form…')).toBeNull();
  });
});
