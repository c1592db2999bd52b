// Keyboard shortcuts of the whole console: `?` for the help dialog and two-key "g then letter"
// sequences for the screens (as in GitHub or Gmail), ignored while typing in a field.
import { useEffect } from 'react';
import { isTypingTarget } from '@/components/ui/typing-target';

export const SCREEN_SHORTCUTS = [
  { key: 'i', href: '/', description: 'Go to Create image' },
  { key: 't', href: '/translate', description: 'Go to Translate video' },
  { key: 'v', href: '/image-to-video', description: 'Go to Image to video' },
  { key: 'k', href: '/tasks', description: 'Go to Tasks' },
  { key: 'b', href: '/boards', description: 'Go to Boards' },
  { key: 'n', href: '/insights', description: 'Go to Insights' },
  { key: 'c', href: '/callbacks', description: 'Go to Callbacks' },
  { key: 'p', href: '/people', description: 'Go to People (admins)' },
] as const;

/** How long the second key of a sequence may wait after `g`. */
const SEQUENCE_TIMEOUT_MS = 1500;

interface ShortcutHandlers {
  onHelp(): void;
  onNavigate(href: string): void;
}

export function useGlobalShortcuts({ onHelp, onNavigate }: ShortcutHandlers) {
  useEffect(() => {
    let pendingG = 0;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
      if (isTypingTarget(event.target)) return;
      // A modal dialog (ours or a screen's) owns the keyboard while open.
      if (document.querySelector('dialog[open]')) return;
      if (event.key === '?') {
        event.preventDefault();
        pendingG = 0;
        onHelp();
        return;
      }
      if (pendingG && Date.now() - pendingG < SEQUENCE_TIMEOUT_MS) {
        pendingG = 0;
        const target = SCREEN_SHORTCUTS.find((s) => s.key === event.key.toLowerCase());
        if (target) {
          event.preventDefault();
          onNavigate(target.href);
        }
        return;
      }
      pendingG = event.key === 'g' && !event.shiftKey ? Date.now() : 0;
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onHelp, onNavigate]);
}
