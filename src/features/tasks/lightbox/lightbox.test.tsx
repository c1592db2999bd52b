// @vitest-environment jsdom
// The results lightbox (./lightbox.ts) opened from result images (`Img` with `zoom`): a labelled
// modal dialog with the image large, "2 of 3", Download, ← / → (and the buttons) through the page's
// result images, Close and Escape giving the focus back to the image clicked.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emulateModalDialogs } from '@/testing/modal-dialog';
import { Img } from '@/features/tasks/shared/task-media';

beforeAll(() => emulateModalDialogs({ escapeCloses: true }));

afterEach(async () => {
  // The lightbox lives outside the rendered tree: a test that leaves it open closes it.
  document.querySelector<HTMLDialogElement>('dialog[open]')?.close();
  await waitFor(() => expect(document.querySelector('dialog')).toBeNull());
  cleanup();
});

const image = (n: number, download: string) => (
  <Img
    key={n}
    link={{ url: `https://media.example.com/${n}.png` }}
    alt={`Generated image: Harbour ${n}`}
    className=""
    what="image"
    zoom={download}
  />
);

function setup(count = 3) {
  const user = userEvent.setup();
  render(
    <main>
      {Array.from({ length: count }, (_, i) =>
        image(
          i + 1,
          i === 2 ? 'https://media.example.com/3.png' : `/__console/tasks/t${i + 1}/download/result`,
        ),
      )}
      <img src="https://media.example.com/not-a-result.png" alt="Not a result" />
    </main>,
  );
  const trigger = (n: number) =>
    screen.getByRole('button', { name: `View larger: Generated image: Harbour ${n}` });
  return { user, trigger };
}

describe('the results lightbox', () => {
  it('opens the clicked image large in a labelled modal dialog, with its counter and download', async () => {
    const { user, trigger } = setup();
    await user.click(trigger(2));
    const dialog = await screen.findByRole('dialog', { name: 'Image 2 of 3' });
    expect(dialog).toHaveAttribute('open');
    expect(within(dialog).getByRole('heading', { name: 'Image 2 of 3' })).toBeVisible();
    expect(within(dialog).getByRole('img', { name: 'Generated image: Harbour 2' })).toHaveAttribute(
      'src',
      'https://media.example.com/2.png',
    );
    expect(dialog).toHaveAccessibleDescription('Generated image: Harbour 2');
    const download = within(dialog).getByRole('link', { name: 'Download' });
    expect(download).toHaveAttribute('href', '/__console/tasks/t2/download/result');
    expect(download).toHaveAttribute('download');
    expect(within(dialog).getByRole('button', { name: /Close/ })).toHaveFocus();
  });

  it('moves with ← and →, Home and End, and the buttons, through the page’s result images only', async () => {
    const { user, trigger } = setup();
    await user.click(trigger(1));
    const dialog = await screen.findByRole('dialog', { name: 'Image 1 of 3' });
    const shown = () => within(dialog).getByRole('img').getAttribute('alt');
    await user.keyboard('{ArrowRight}');
    expect(dialog).toHaveAccessibleName('Image 2 of 3');
    expect(shown()).toBe('Generated image: Harbour 2');
    await user.keyboard('{ArrowRight}');
    expect(dialog).toHaveAccessibleName('Image 3 of 3');
    // The file itself, not the console's download: opened in a new tab.
    const download = within(dialog).getByRole('link', { name: 'Download' });
    expect(download).toHaveAttribute('href', 'https://media.example.com/3.png');
    expect(download).toHaveAttribute('target', '_blank');
    expect(download).not.toHaveAttribute('download');
    // Round: past the last comes the first.
    await user.keyboard('{ArrowRight}');
    expect(dialog).toHaveAccessibleName('Image 1 of 3');
    await user.keyboard('{ArrowLeft}');
    expect(dialog).toHaveAccessibleName('Image 3 of 3');
    await user.keyboard('{Home}');
    expect(dialog).toHaveAccessibleName('Image 1 of 3');
    await user.keyboard('{End}');
    expect(dialog).toHaveAccessibleName('Image 3 of 3');
    // A modifier leaves the arrow to the browser.
    await user.keyboard('{Alt>}{ArrowLeft}{/Alt}');
    expect(dialog).toHaveAccessibleName('Image 3 of 3');
    await user.click(within(dialog).getByRole('button', { name: 'Previous image' }));
    expect(dialog).toHaveAccessibleName('Image 2 of 3');
    await user.click(within(dialog).getByRole('button', { name: 'Next image' }));
    expect(dialog).toHaveAccessibleName('Image 3 of 3');
    expect(shown()).toBe('Generated image: Harbour 3');
  });

  it('closes with Escape and gives the focus back to the image clicked', async () => {
    const { user, trigger } = setup();
    await user.click(trigger(3));
    await screen.findByRole('dialog', { name: 'Image 3 of 3' });
    await user.keyboard('{ArrowLeft}');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(trigger(3)).toHaveFocus();
  });

  it('closes with its Close button, and opens again', async () => {
    const { user, trigger } = setup();
    await user.click(trigger(1));
    const dialog = await screen.findByRole('dialog', { name: 'Image 1 of 3' });
    await user.click(within(dialog).getByRole('button', { name: /Close/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(trigger(1)).toHaveFocus();
    await user.click(trigger(2));
    expect(await screen.findByRole('dialog', { name: 'Image 2 of 3' })).toBeInTheDocument();
  });

  it('closes when the page changes (the browser’s back button)', async () => {
    const { user, trigger } = setup();
    await user.click(trigger(1));
    await screen.findByRole('dialog', { name: 'Image 1 of 3' });
    window.dispatchEvent(new PopStateEvent('popstate'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows one image without a counter or arrows', async () => {
    const { user, trigger } = setup(1);
    await user.click(trigger(1));
    const dialog = await screen.findByRole('dialog', { name: 'Image' });
    expect(within(dialog).queryByRole('button', { name: 'Next image' })).toBeNull();
    await user.keyboard('{ArrowRight}');
    expect(dialog).toHaveAccessibleName('Image');
  });
});
