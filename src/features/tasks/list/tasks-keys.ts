// Keys of the Tasks screen: `/` focuses the search, `j` and `k` move the focus to the
// next and previous card. Never while typing in a field, with Ctrl, ⌘ or Alt held, while a dialog
// is open, or when the shell's listener has taken the key (`g` then `k` goes to Tasks). This part is
// eager and small; moving between cards (./card-keys.ts) loads on the first `j` or `k`.
import { useEffect } from 'react';
import { isTypingTarget } from '@/components/ui/typing-target';

export function useTasksKeys() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { key } = event;
      if (
        (key !== '/' && key !== 'j' && key !== 'k') ||
        event.defaultPrevented ||
        event.ctrlKey ||
        event.metaKey ||
        event.altKey ||
        isTypingTarget(event.target) ||
        document.querySelector('dialog[open]')
      )
        return;
      event.preventDefault();
      if (key === '/') document.getElementById('task-search')?.focus();
      else void import('./card-keys').then((keys) => keys.moveCardFocus(key === 'j' ? 1 : -1));
    };
    // On window: the shell's listener (on document) hears the key first.
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
