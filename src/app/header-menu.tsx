// The phone's header menu: below the `lg` width the header is one line (name, theme, Menu), and the
// navigation, Support, who is signed in and the backend live behind this disclosure button.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation } from 'wouter';
import { BackendIndicator } from './backend-indicator';
import { NavLinks, useShowsSupport, useSupportItems } from './nav-links';
import { NAV_ITEMS } from './routes';
import { SignOutButton } from './sign-out-button';
import { AccountSummary } from './user-badge';

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor">
      {open ? (
        <path d="M5 5l10 10M15 5L5 15" strokeWidth="1.8" strokeLinecap="round" />
      ) : (
        <path d="M3 5.5h14M3 10h14M3 14.5h14" strokeWidth="1.8" strokeLinecap="round" />
      )}
    </svg>
  );
}

/**
 * A disclosure (button with aria-expanded, the panel after it): opening moves focus to the first
 * link, Escape closes and gives focus back to the button, and so do choosing a link, a click
 * outside and focus leaving the menu.
 */
export function HeaderMenu() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const [location] = useLocation();
  const showsSupport = useShowsSupport();
  const supportItems = useSupportItems();

  // A new screen (a link in the menu, the browser's back button, a shortcut) closes it.
  const [shownAt, setShownAt] = useState(location);
  if (shownAt !== location) {
    setShownAt(location);
    if (open) setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLElement>('a[href], button')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.preventDefault();
    event.stopPropagation();
    close(true);
  };

  return (
    <div
      ref={rootRef}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        const next = event.relatedTarget as Node | null;
        if (open && next && !rootRef.current?.contains(next)) setOpen(false);
      }}
      className="lg:hidden"
    >
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        className="inline-flex h-9 items-center gap-1.5 rounded-lg border border-zinc-200 px-2.5 text-sm font-medium text-zinc-700 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
      >
        <MenuIcon open={open} />
        Menu
      </button>
      <div
        ref={panelRef}
        id={panelId}
        hidden={!open}
        className="absolute inset-x-0 top-full max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-zinc-200 bg-white px-4 pt-3 pb-4 shadow-lg dark:border-zinc-800 dark:bg-zinc-950"
      >
        <NavLinks label="Main" items={NAV_ITEMS} stacked onNavigate={() => close(false)} />
        {showsSupport && (
          <div className="mt-3 border-t border-zinc-200 pt-3 dark:border-zinc-800">
            <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
              Support
            </p>
            <NavLinks label="Support" items={supportItems} stacked onNavigate={() => close(false)} />
          </div>
        )}
        <div className="mt-3 flex flex-wrap items-center justify-between gap-3 border-t border-zinc-200 px-3 pt-3 dark:border-zinc-800">
          <AccountSummary onNavigate={() => close(false)} />
          <SignOutButton />
        </div>
        <div className="mt-3 px-3">
          <BackendIndicator />
        </div>
      </div>
    </div>
  );
}
