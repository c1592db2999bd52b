// @vitest-environment jsdom
// The results lightbox (./lightbox.ts) opened from result images (`Img` with `zoom`): a labelled
// modal dialog with the image large, "2 of 3", Download, ← / → (and the buttons) through the page's
// result images, Close and Escape giving the focus back to the image clicked.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
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

describe('the lightbox’s zoom', () => {
  const scaleOf = (image: HTMLElement) => {
    const match = /scale\(([\d.]+)\)/.exec(image.style.transform);
    return match ? Number(match[1]) : 1;
  };

  async function openFirst() {
    const { user, trigger } = setup();
    await user.click(trigger(1));
    const dialog = await screen.findByRole('dialog', { name: 'Image 1 of 3' });
    const zoom = within(dialog).getByRole('group', { name: 'Zoom' });
    const shown = () => within(dialog).getByRole('img');
    const fit = within(zoom).getByRole('button', { name: 'Fit to screen' });
    return { user, dialog, zoom, shown, fit };
  }

  it('zooms with + and − (keys and buttons) between fit and eight times, and 0 fits again', async () => {
    const { user, zoom, shown, fit } = await openFirst();
    const zoomIn = within(zoom).getByRole('button', { name: 'Zoom in' });
    const zoomOut = within(zoom).getByRole('button', { name: 'Zoom out' });
    expect(scaleOf(shown())).toBe(1);
    expect(fit).toHaveTextContent('100%');
    expect(zoomOut).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('+');
    expect(scaleOf(shown())).toBe(1.5);
    expect(fit).toHaveTextContent('150%');
    await user.keyboard('=');
    expect(scaleOf(shown())).toBe(2.25);
    await user.keyboard('-');
    expect(scaleOf(shown())).toBe(1.5);
    await user.click(zoomIn);
    expect(scaleOf(shown())).toBe(2.25);
    await user.click(zoomOut);
    await user.click(zoomOut);
    // Fit is the least: one more − changes nothing.
    expect(scaleOf(shown())).toBe(1);
    expect(zoomOut).toHaveAttribute('aria-disabled', 'true');
    // 1.5^5 = 7.6: the fifth press is just under the most, the sixth stops at it, a seventh adds nothing.
    for (let press = 0; press < 5; press++) await user.click(zoomIn);
    expect(scaleOf(shown())).toBeCloseTo(7.59375, 4);
    expect(zoomIn).toHaveAttribute('aria-disabled', 'false');
    await user.click(zoomIn);
    expect(scaleOf(shown())).toBe(8);
    expect(fit).toHaveTextContent('800%');
    expect(zoomIn).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('+');
    expect(scaleOf(shown())).toBe(8);
    await user.keyboard('0');
    expect(scaleOf(shown())).toBe(1);
    expect(shown().style.transform).toBe('');
  });

  it('zooms in with a double-click and back to fit with another, and with the wheel', async () => {
    const { user, shown, fit } = await openFirst();
    await user.dblClick(shown());
    expect(scaleOf(shown())).toBe(2.5);
    await user.dblClick(shown());
    expect(scaleOf(shown())).toBe(1);
    fireEvent.wheel(shown(), { deltaY: -100 });
    expect(scaleOf(shown())).toBeGreaterThan(1.2);
    fireEvent.wheel(shown(), { deltaY: 5000 });
    expect(scaleOf(shown())).toBe(1);
    expect(fit).toHaveTextContent('100%');
  });

  it('pans by dragging once zoomed, no further than the image’s edge, and pinches with two fingers', async () => {
    const { user, shown } = await openFirst();
    const image = shown();
    Object.defineProperty(image, 'offsetWidth', { value: 400 });
    Object.defineProperty(image, 'offsetHeight', { value: 300 });
    // Not zoomed: a drag moves nothing.
    pointer(image, 'pointerdown', 1, 100, 100);
    pointer(image, 'pointermove', 1, 150, 120);
    pointer(image, 'pointerup', 1, 150, 120);
    expect(image.style.transform).toBe('');
    await user.keyboard('+'); // 1.5: it may move (1.5 − 1) × 400 / 2 = 100 px sideways, 75 up or down
    pointer(image, 'pointerdown', 1, 100, 100);
    pointer(image, 'pointermove', 1, 160, 80);
    expect(image.style.transform).toBe('translate(60px, -20px) scale(1.5)');
    pointer(image, 'pointermove', 1, 400, 400);
    expect(image.style.transform).toBe('translate(100px, 75px) scale(1.5)');
    pointer(image, 'pointerup', 1, 400, 400);
    await user.keyboard('0');
    // Two fingers twice as far apart: twice the scale.
    pointer(image, 'pointerdown', 1, 100, 100);
    pointer(image, 'pointerdown', 2, 200, 100);
    pointer(image, 'pointermove', 2, 300, 100);
    expect(scaleOf(image)).toBe(2);
    pointer(image, 'pointerup', 2, 300, 100);
    pointer(image, 'pointerup', 1, 100, 100);
  });

  it('opens every image at fit', async () => {
    const { user, dialog, zoom, shown } = await openFirst();
    await user.keyboard('++');
    expect(scaleOf(shown())).toBe(2.25);
    await user.keyboard('{ArrowRight}');
    expect(dialog).toHaveAccessibleName('Image 2 of 3');
    expect(scaleOf(shown())).toBe(1);
    expect(zoom).toBeVisible();
  });

  it('has no zoom for a video, which has its own controls', async () => {
    const user = userEvent.setup();
    render(
      <main>
        {image(1, '/__console/tasks/i1/download/result')}
        <Img
          link={{ url: 'https://m.example/v.jpg' }}
          alt="Clip"
          className=""
          what="video"
          zoom="/__console/tasks/v1/download/result"
          video="https://m.example/v.mp4"
        />
      </main>,
    );
    await user.click(screen.getByRole('button', { name: 'View larger: Clip' }));
    const dialog = await screen.findByRole('dialog', { name: 'Video 2 of 2' });
    expect(within(dialog).queryByRole('group', { name: 'Zoom' })).toBeNull();
    await user.keyboard('+');
    expect(dialog.querySelector('video')!.style.transform).toBe('');
    await user.keyboard('{ArrowLeft}');
    expect(within(dialog).getByRole('group', { name: 'Zoom' })).toBeVisible();
  });
});

describe('what the lightbox pages through', () => {
  it('pages within the scope the image was opened from, not the rest of the page', async () => {
    const user = userEvent.setup();
    render(
      <main>
        <ul data-lightbox-scope="">
          {image(1, '/__console/tasks/a1/download/result')}
          {image(2, '/__console/tasks/a2/download/result')}
        </ul>
        <ul data-lightbox-scope="">
          {[3, 4, 5, 6].map((n) => image(n, `/__console/tasks/b${n}/download/result`))}
        </ul>
      </main>,
    );
    await user.click(screen.getByRole('button', { name: 'View larger: Generated image: Harbour 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Image 2 of 2' });
    await user.keyboard('{ArrowRight}');
    expect(dialog).toHaveAccessibleName('Image 1 of 2');
    expect(within(dialog).getByRole('img')).toHaveAccessibleName('Generated image: Harbour 1');
    (dialog as HTMLDialogElement).close();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'View larger: Generated image: Harbour 5' }));
    expect(await screen.findByRole('dialog', { name: 'Image 3 of 4' })).toBeInTheDocument();
  });
});

/** A pointer event as the browser sends it (jsdom's PointerEvent lacks the coordinates). */
function pointer(
  target: Element,
  type: 'pointerdown' | 'pointermove' | 'pointerup',
  id: number,
  x: number,
  y: number,
) {
  const event = new MouseEvent(type, { bubbles: true, clientX: x, clientY: y, button: 0 });
  Object.defineProperty(event, 'pointerId', { value: id });
  target.dispatchEvent(event);
}
