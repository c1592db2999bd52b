// `j` / `k` on the Tasks gallery (loaded on the first press by ./tasks-keys.ts): the focus moves to
// the next or previous card's title link, the card's own link (Enter opens it, a screen reader reads
// its title). Cards are the grid's items by position (aria-posinset), so this works on the plain
// grid and on the virtualised one alike: a card the virtualised grid has not drawn is asked for
// (REVEAL_CARD, ./virtual-task-grid.tsx scrolls its row in) and focused once it is there.
import { PANEL_ID } from './task-filters';

/** Dispatched on the grid's list with the card's index (0-based) as `detail`. */
export const REVEAL_CARD = 'reveal-card';

/** How many frames to wait for a revealed card to be drawn. */
const REVEAL_FRAMES = 30;

const positionOf = (card: Element) => Number(card.getAttribute('aria-posinset'));

const cardAt = (list: Element, position: number) =>
  list.querySelector<HTMLElement>(`[aria-posinset="${position}"]`);

/** The first card at least partly below the sticky header: where `j` starts when no card has focus. */
function firstInView(list: Element): number {
  const cards = [...list.querySelectorAll('[aria-posinset]')];
  const top = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  const shown = cards.find((card) => card.getBoundingClientRect().bottom > top) ?? cards[0];
  return shown ? positionOf(shown) : 0;
}

function focusCard(panel: HTMLElement, card: HTMLElement) {
  const target = card.querySelector<HTMLElement>('h2 a[href]') ?? card.querySelector<HTMLElement>('a[href]');
  if (!target) return;
  target.focus({ preventScroll: true });
  card.scrollIntoView({ block: 'nearest' });
  // Kept on the panel, which outlives the grid's redraws (and goes with the screen).
  panel.dataset.lastCard = String(positionOf(card));
}

/** Moves the focus `step` cards on (1: `j`) or back (-1: `k`) in the Tasks gallery. */
export function moveCardFocus(step: 1 | -1) {
  const panel = document.getElementById(PANEL_ID);
  const list = panel?.querySelector('[role="list"]');
  if (!panel || !list) return;
  const lastPosition = Number(panel.dataset.lastCard ?? 0);
  const active = document.activeElement;
  const current = active && list.contains(active) ? active.closest('[aria-posinset]') : null;
  let next: number;
  if (current) next = positionOf(current) + step;
  // Focus fell to the page when the card it was on was redrawn (the grid turned virtual): go on
  // from there while that card is still drawn.
  else if (lastPosition && (!active || active === document.body) && cardAt(list, lastPosition))
    next = lastPosition + step;
  else next = firstInView(list);
  const size = Number(list.querySelector('[aria-setsize]')?.getAttribute('aria-setsize') ?? 0);
  if (next < 1 || (size && next > size)) return;
  const drawn = cardAt(list, next);
  if (drawn) return focusCard(panel, drawn);
  list.dispatchEvent(new CustomEvent(REVEAL_CARD, { detail: next - 1 }));
  let frames = REVEAL_FRAMES;
  const wait = () => {
    const card = cardAt(list, next);
    if (card) focusCard(panel, card);
    else if (--frames > 0) requestAnimationFrame(wait);
  };
  requestAnimationFrame(wait);
}
