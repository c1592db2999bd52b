// The results lightbox, loaded on the first click on a result image (./open-lightbox.ts): a modal
// native <dialog> with the image large, its name, previous/next (arrow keys too) through every
// result image on the page, Escape or Close to leave, focus back on the image that opened it.
// showModal() makes the rest of the page inert, so focus stays inside.
import { useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';

export interface LightboxItem {
  src: string;
  alt: string;
}

function Lightbox({
  items,
  start,
  onClose,
}: {
  items: readonly LightboxItem[];
  start: number;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [index, setIndex] = useState(start);
  const item = items[index]!;
  const many = items.length > 1;
  const move = (step: number) => setIndex((now) => (now + step + items.length) % items.length);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    element.showModal();
    return () => element.close();
  }, []);

  return (
    <dialog
      ref={dialog}
      aria-label={`Result ${index + 1} of ${items.length}: ${item.alt}`}
      onClose={onClose}
      onKeyDown={(event) => {
        if (event.key === 'ArrowRight' && many) {
          event.preventDefault();
          move(1);
        } else if (event.key === 'ArrowLeft' && many) {
          event.preventDefault();
          move(-1);
        }
      }}
      // A click on the backdrop (the dialog itself, outside its content) closes it.
      onClick={(event) => {
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
      className="m-auto max-h-none max-w-none bg-transparent p-0 backdrop:bg-black/85"
    >
      <div className="flex h-dvh w-screen flex-col items-center justify-center gap-3 p-4 text-white">
        <img
          key={item.src}
          src={item.src}
          alt={item.alt}
          className="max-h-[calc(100dvh-7rem)] max-w-full rounded-lg object-contain shadow-2xl"
        />
        <p className="max-w-full truncate text-sm" aria-live="polite">
          {many && <span className="tabular-nums">{`${index + 1} of ${items.length} · `}</span>}
          {item.alt}
        </p>
        <div className="flex gap-2">
          {many && (
            <button type="button" className={buttonClass} onClick={() => move(-1)}>
              <span aria-hidden="true">←</span> Previous
            </button>
          )}
          <button type="button" className={buttonClass} autoFocus onClick={() => dialog.current?.close()}>
            Close
          </button>
          {many && (
            <button type="button" className={buttonClass} onClick={() => move(1)}>
              Next <span aria-hidden="true">→</span>
            </button>
          )}
        </div>
      </div>
    </dialog>
  );
}

const buttonClass =
  'rounded-lg bg-white/15 px-3 py-1.5 text-sm font-medium text-white hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

/** Opens the lightbox on `items[start]`; focus returns to `returnTo` when it closes. */
export function showLightbox(items: readonly LightboxItem[], start: number, returnTo: HTMLElement) {
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  root.render(
    <Lightbox
      items={items}
      start={start}
      onClose={() => {
        // After React has let go of the dialog: unmount, then give focus back.
        queueMicrotask(() => {
          root.unmount();
          host.remove();
          if (returnTo.isConnected) returnTo.focus();
        });
      }}
    />,
  );
}
