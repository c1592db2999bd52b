// The results lightbox, loaded on the first click on a result (`Img` with `zoom`, and
// `video` for a video's cover, ../shared/task-media.tsx): a native modal <dialog> with the image large, or the video
// playing with its controls, "Image 2 of 4", its download and previous / next (← and →, Home and End
// too) through the results of the page in page order: a request's images on its page, the cards
// drawn on Tasks. showModal() makes the rest of the page
// inert; Tab goes round inside; Escape or Close closes it and the focus goes back to the image
// clicked. Plain DOM, importing nothing but its zoom (./lightbox-zoom.ts, in the same chunk): the
// screens' code that loads it carries no list of chunks to fetch ahead, so their first load stays as
// it was.
//
// Which results it pages through: those of the nearest `[data-lightbox-scope]` around the image
// clicked (one request's tiles on a form, the Tasks grid, a board), else the whole page's. A form's
// recent requests are scopes of their own, so "Image 2 of 2" counts that request only.
import { imageZoom, ZOOM_MAX, ZOOM_MIN, ZOOM_STEP } from './lightbox-zoom';

// Stars and boards: a result of the team's record (its download is the console's
// `/__console/tasks/<id>/download/result`) has Star (key `s`) and, when the screen can add to boards
// (it shows a `[data-board-host]` marker), Add to board. Starring goes to the server from here and
// is announced on window (STARS_CHANGED_EVENT) so the screen's star buttons follow; Add to board
// asks the screen's board picker (ADD_TO_BOARD_EVENT). The names are spelled here, not imported.
const STARS_CHANGED_EVENT = 'console:stars-changed';
const ADD_TO_BOARD_EVENT = 'console:add-to-board';
const RECORD_DOWNLOAD = /^\/__console\/tasks\/([^/]+)\/download\/result$/;

/** The task id of a result of the team's record, from its download address. */
function taskIdOf(download: string | undefined): string | undefined {
  const match = download ? RECORD_DOWNLOAD.exec(download) : null;
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

interface LightboxItem {
  /** The image, or a video's cover (its poster). */
  src: string;
  alt: string;
  /** Where Download leads: the console's named download, or the file itself. */
  download?: string;
  /** A video result: played with its controls. */
  video?: string;
}

/**
 * The results of the trigger's scope (their `data-zoom` buttons, each with an image: the result, or
 * the cover of the video in `data-video`), in page order, and which one was clicked.
 */
function itemsOfScope(trigger: HTMLElement): { items: LightboxItem[]; start: number } {
  const scope: ParentNode = trigger.closest('[data-lightbox-scope]') ?? document;
  const triggers = [...scope.querySelectorAll<HTMLElement>('[data-zoom]')].filter((element) =>
    element.querySelector('img'),
  );
  const items = triggers.map((element) => {
    const image = element.querySelector('img')!;
    const { zoom, video } = element.dataset;
    return { src: image.src, alt: image.alt, download: zoom || undefined, video };
  });
  return { items, start: Math.max(0, triggers.indexOf(trigger)) };
}

const CONTROL =
  'inline-flex min-h-10 items-center justify-center gap-1.5 rounded-lg bg-white/10 px-3 text-sm font-medium text-white hover:bg-white/20 focus-visible:outline-white';
const ARROW =
  'absolute top-1/2 flex size-12 -translate-y-1/2 items-center justify-center rounded-full bg-black/60 text-2xl text-white shadow-lg hover:bg-black/80 focus-visible:outline-white';

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

const hidden = (text: string) => element('span', { 'aria-hidden': 'true' }, text);

/** − 100% +: the image's zoom, and its keys (+ and −, 0 to fit; Shift is how some keyboards type +). */
function zoomControls() {
  const button = (label: string, keys: string, glyph: string) =>
    element(
      'button',
      {
        type: 'button',
        class: `${CONTROL} min-w-10 !px-2 aria-disabled:cursor-default aria-disabled:opacity-40`,
        'aria-label': label,
        'aria-keyshortcuts': keys,
      },
      glyph,
    );
  const zoomOut = button('Zoom out', '-', '−');
  const zoomIn = button('Zoom in', '+', '+');
  const fit = button('Fit to screen', '0', '100%');
  fit.classList.add('tabular-nums', 'min-w-16');
  const zoomGroup = element(
    'div',
    { role: 'group', 'aria-label': 'Zoom', class: 'flex items-center gap-1' },
    zoomOut,
    fit,
    zoomIn,
  );
  const zoom = imageZoom((scale) => {
    fit.textContent = `${Math.round(scale * 100)}%`;
    // aria-disabled, not disabled: the button pressed to reach the bound keeps the focus.
    zoomOut.setAttribute('aria-disabled', String(scale <= ZOOM_MIN));
    zoomIn.setAttribute('aria-disabled', String(scale >= ZOOM_MAX));
  });
  zoomOut.addEventListener('click', () => zoom.zoomBy(1 / ZOOM_STEP));
  zoomIn.addEventListener('click', () => zoom.zoomBy(ZOOM_STEP));
  fit.addEventListener('click', () => zoom.reset());
  const KEYS: Record<string, number> = {
    '+': ZOOM_STEP,
    '=': ZOOM_STEP,
    '-': 1 / ZOOM_STEP,
    _: 1 / ZOOM_STEP,
    '0': 0,
  };
  /** Whether the key was a zoom key (and zoomed). */
  const zoomKey = (event: KeyboardEvent): boolean => {
    const factor = KEYS[event.key];
    if (factor === undefined || zoomGroup.hidden) return false;
    event.preventDefault();
    if (factor) zoom.zoomBy(factor);
    else zoom.reset();
    return true;
  };
  return { zoom, zoomGroup, zoomKey };
}

/** Tab goes round inside: past the last control, not out to the browser's own. Whether it was Tab. */
function keepTabInside(dialog: HTMLDialogElement, event: KeyboardEvent): boolean {
  if (event.key !== 'Tab') return false;
  const controls = [
    ...dialog.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), video[controls]'),
  ].filter((control) => !control.closest('[hidden]'));
  if (document.activeElement !== controls.at(event.shiftKey ? 0 : -1)) return true;
  event.preventDefault();
  controls.at(event.shiftKey ? -1 : 0)?.focus();
  return true;
}

/**
 * Star and Add to board for the result shown (`current()`), when it is one of the team's record:
 * my stars are read once the lightbox opens; a toggle changes them here and on the server, and is
 * put back if the server refuses.
 */
function recordActions(current: () => LightboxItem) {
  const star = element(
    'button',
    { type: 'button', class: CONTROL, 'aria-pressed': 'false', 'aria-keyshortcuts': 's' },
    'Star',
  );
  const addToBoard = element('button', { type: 'button', class: CONTROL }, 'Add to board');
  let stars = new Set<string>();
  /** What was toggled here, by task id: it wins over the first read if that read comes later. */
  const toggled = new Map<string, boolean>();
  const showStar = () => {
    const id = taskIdOf(current().download);
    star.hidden = !id;
    addToBoard.hidden = !id || !document.querySelector('[data-board-host]');
    const on = Boolean(id && stars.has(id));
    star.setAttribute('aria-pressed', String(on));
    star.textContent = on ? '★ Starred' : '☆ Star';
  };
  void fetch('/__console/stars', { headers: { accept: 'application/json' } })
    .then((response) => (response.ok ? response.json() : undefined))
    .then((body: { data?: { ids?: string[] } } | undefined) => {
      // A star toggled before this answer came stays as toggled.
      const read = new Set(body?.data?.ids ?? []);
      for (const [id, starred] of toggled) {
        if (starred) read.add(id);
        else read.delete(id);
      }
      stars = read;
      showStar();
    })
    .catch(() => undefined);
  const toggleStar = async () => {
    const id = taskIdOf(current().download);
    if (!id) return;
    const starred = !stars.has(id);
    toggled.set(id, starred);
    if (starred) stars.add(id);
    else stars.delete(id);
    showStar();
    const response = await fetch('/__console/stars', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [id], starred }),
    }).catch(() => undefined);
    if (!response?.ok) {
      toggled.delete(id);
      if (starred) stars.delete(id);
      else stars.add(id);
      showStar();
    }
    window.dispatchEvent(new Event(STARS_CHANGED_EVENT));
  };
  star.addEventListener('click', () => void toggleStar());
  addToBoard.addEventListener('click', () => {
    const item = current();
    const id = taskIdOf(item.download);
    if (id)
      window.dispatchEvent(
        new CustomEvent(ADD_TO_BOARD_EVENT, { detail: { ids: [id], what: item.alt || id } }),
      );
  });
  return { star, addToBoard, showStar, toggleStar };
}

/** The full-screen modal: the bar of controls, the stage with the result, the caption. */
function lightboxFrame(bar: HTMLElement[], stage: HTMLElement, caption: HTMLElement): HTMLDialogElement {
  return element(
    'dialog',
    {
      'data-lightbox': '',
      tabindex: '-1',
      'aria-labelledby': 'lightbox-title',
      'aria-describedby': 'lightbox-caption',
      class:
        'fixed inset-0 m-0 h-dvh max-h-none w-screen max-w-none bg-zinc-950 p-0 text-white outline-none backdrop:bg-black',
    },
    element(
      'div',
      { class: 'flex h-full flex-col' },
      element('div', { class: 'flex flex-wrap items-center gap-2 p-3' }, ...bar),
      stage,
      caption,
    ),
  );
}

/** ‹ and ›: the previous and next result (← and →). */
function pagerArrows(noun: string, go: (step: number) => void): HTMLButtonElement[] {
  const arrow = (label: string, side: string, glyph: string, key: string, step: number) => {
    const button = element(
      'button',
      { type: 'button', 'aria-label': label, 'aria-keyshortcuts': key, class: `${ARROW} ${side}` },
      hidden(glyph),
    );
    button.addEventListener('click', () => go(step));
    return button;
  };
  return [
    arrow(`Previous ${noun}`, 'left-2', '‹', 'ArrowLeft', -1),
    arrow(`Next ${noun}`, 'right-2', '›', 'ArrowRight', 1),
  ];
}

/** Opens the lightbox on the page's result images at `trigger`'s; the focus returns to it on close. */
export function showLightbox(trigger: HTMLElement) {
  if (document.querySelector('dialog[data-lightbox]')) return; // a second click before it opened
  const { items, start } = itemsOfScope(trigger);
  if (!items.length) return;
  const count = items.length;
  const many = count > 1;
  const noun = items.every((item) => !item.video) ? 'image' : 'result';
  let index = start;

  const title = element('h2', {
    id: 'lightbox-title',
    'aria-live': 'polite',
    class: 'mr-auto text-sm font-semibold tabular-nums',
  });
  const download = element('a', { class: CONTROL }, 'Download');
  const { star, addToBoard, showStar, toggleStar } = recordActions(() => items[index]!);
  const closeButton = element('button', { type: 'button', class: CONTROL }, hidden('✕'), ' Close');
  const { zoom, zoomGroup, zoomKey } = zoomControls();
  const stage = element(
    'div',
    { class: 'relative flex min-h-0 flex-1 items-center justify-center overflow-hidden px-2 sm:px-16' },
    element('span', {}),
  );
  const caption = element('p', {
    id: 'lightbox-caption',
    class: 'line-clamp-2 px-4 py-3 text-center text-sm text-zinc-200',
  });
  const dialog = lightboxFrame([title, zoomGroup, star, addToBoard, download, closeButton], stage, caption);

  const show = (at: number) => {
    index = ((at % count) + count) % count;
    const item = items[index]!;
    const what = item.video ? 'Video' : 'Image';
    title.textContent = many ? `${what} ${index + 1} of ${count}` : what;
    // A new element each time: the old picture (or a playing video) never stays under the new caption.
    const media = { class: 'max-h-full max-w-full object-contain' };
    const next = item.video
      ? element('video', {
          ...media,
          src: item.video,
          controls: '',
          playsinline: '',
          preload: 'metadata',
          'aria-label': item.alt,
          poster: item.src,
        })
      : element('img', { ...media, src: item.src, alt: item.alt });
    // The player had the focus: it goes to the new one (or the dialog), not out of the dialog.
    const focused = stage.firstChild === document.activeElement;
    stage.replaceChild(next, stage.firstChild!);
    // Each result opens at fit; a video has its own controls and no zoom.
    zoom.attach(item.video ? undefined : (next as HTMLImageElement));
    zoomGroup.hidden = Boolean(item.video);
    if (focused) (item.video ? next : dialog).focus();
    caption.textContent = item.alt;
    showStar();
    download.hidden = !item.download;
    download.href = item.download ?? '';
    const local = item.download?.startsWith('/');
    download.toggleAttribute('download', Boolean(local));
    if (local) download.removeAttribute('target');
    else Object.assign(download, { target: '_blank', rel: 'noopener noreferrer' });
    // The neighbours load while this one is looked at, so an arrow shows the next at once.
    if (many) for (const step of [1, -1]) new Image().src = items[(index + step + count) % count]!.src;
  };

  if (many) stage.append(...pagerArrows(noun, (step) => show(index + step)));

  const close = () => dialog.close();
  closeButton.addEventListener('click', close);
  // A click beside the image (not on it or a button) closes, as on a backdrop.
  stage.addEventListener('click', (event) => {
    if (event.target === stage) close();
  });
  dialog.addEventListener('keydown', (event) => {
    if (keepTabInside(dialog, event) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (zoomKey(event) || event.shiftKey) return;
    // `s` stars the result shown (not while a control that takes letters has the focus: none does).
    if (event.key === 's' || event.key === 'S') {
      event.preventDefault();
      void toggleStar();
      return;
    }
    if (!many) return;
    const to = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: count - 1 }[event.key];
    if (to === undefined) return;
    // Before the video's own controls see it: ← and → go between results there too, not seek.
    event.preventDefault();
    show(to);
  });

  // The page behind does not scroll under the wheel while the lightbox is open, and the browser's
  // back button (leaving the page) closes it.
  const overflow = document.documentElement.style.overflow;
  document.documentElement.style.overflow = 'hidden';
  window.addEventListener('popstate', close);
  dialog.addEventListener('close', () => {
    window.removeEventListener('popstate', close);
    document.documentElement.style.overflow = overflow;
    dialog.remove();
    if (trigger.isConnected) trigger.focus();
  });

  show(start);
  document.body.append(dialog);
  dialog.showModal();
  // showModal() focuses the first control (Download): Close is the one to start on.
  closeButton.focus();
}
