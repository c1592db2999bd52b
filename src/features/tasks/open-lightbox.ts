// The small, eager part of the lightbox: the buttons around result images carry their image as
// data attributes, and a click gathers every one on the page (in page order) and loads the
// lightbox itself (./lightbox.tsx) on first use, so no route pays for it up front.
export const LIGHTBOX_SRC = 'data-lightbox-src';
export const LIGHTBOX_ALT = 'data-lightbox-alt';

export function openLightbox(trigger: HTMLElement) {
  const triggers = [...document.querySelectorAll<HTMLElement>(`[${LIGHTBOX_SRC}]`)];
  const items = triggers.map((element) => ({
    src: element.getAttribute(LIGHTBOX_SRC)!,
    alt: element.getAttribute(LIGHTBOX_ALT) ?? '',
  }));
  const start = Math.max(0, triggers.indexOf(trigger));
  void import('./lightbox').then(({ showLightbox }) => showLightbox(items, start, trigger));
}
