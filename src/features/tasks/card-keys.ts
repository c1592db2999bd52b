// Keys on the Tasks gallery: `/` focuses the search, `j` and `k` move the focus to the next and
// previous card. Never while typing (an input, a text area, a select, editable text) or with a
// modifier held. Cards are the list's items by position (aria-posinset), so a virtualised grid
// that has not rendered the next card is asked to scroll it into view (`reveal`), and the focus
// follows once it is there.
import { useEffect, useEffectEvent } from 'react';

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

const cardAt = (list: HTMLElement, position: number) =>
  list.querySelector<HTMLElement>(`[role="listitem"][aria-posinset="${position}"]`);

/** The card's first link or button: what Tab would reach first. */
const focusable = (card: HTMLElement) => card.querySelector<HTMLElement>('a[href], button:not([disabled])');

export function useCardKeys(
  list: React.RefObject<HTMLElement | null>,
  count: number,
  reveal?: (index: number) => void,
) {
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event.target))
      return;
    if (document.querySelector('dialog[open]')) return;
    if (event.key === '/') {
      const search = document.getElementById('task-search');
      if (!search) return;
      event.preventDefault();
      search.focus();
      return;
    }
    if (event.key !== 'j' && event.key !== 'k') return;
    const element = list.current;
    if (!element || count === 0) return;
    const current = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(
      '[role="listitem"][aria-posinset]',
    );
    const at = current && element.contains(current) ? Number(current.getAttribute('aria-posinset')) : 0;
    const next = at === 0 ? 1 : Math.min(count, Math.max(1, at + (event.key === 'j' ? 1 : -1)));
    event.preventDefault();
    const focus = (tries: number) => {
      const card = cardAt(element, next);
      const target = card && focusable(card);
      if (target) {
        target.focus();
        card.scrollIntoView({ block: 'nearest' });
      } else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
    };
    if (!cardAt(element, next)) reveal?.(next - 1);
    focus(30);
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
