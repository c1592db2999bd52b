// The More menu's list and the Settings panel (./history-actions.tsx): the WAI-ARIA menu pattern,
// arrows move between the items, Escape closes it and focus goes back to the button. Loaded when the
// menu is first pointed at, focused or opened, so the Tasks screen's first load carries none of it.
import { lazy, useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { LazyPart, PartFailed } from '@/components/ui/core/lazy-part';
import { Button } from '@/components/ui/core/button';

const Settings = lazy(() => import('./tasks-settings').then((m) => ({ default: m.Settings })));

const itemClass =
  'block w-full rounded-md px-3 py-2 text-left text-sm text-zinc-800 hover:bg-zinc-100 focus:bg-zinc-100 focus:outline-none dark:text-zinc-100 dark:hover:bg-zinc-800 dark:focus:bg-zinc-800';

/** One item of the More menu: reached with the arrow keys (roving focus), so out of the Tab order. */
function MenuItem({ onSelect, children }: { onSelect: () => void; children: ReactNode }) {
  return (
    <button type="button" role="menuitem" tabIndex={-1} className={itemClass} onClick={onSelect}>
      {children}
    </button>
  );
}
const popoverClass =
  'absolute right-0 z-20 mt-2 rounded-xl border border-zinc-200 bg-white shadow-lg dark:border-zinc-700 dark:bg-zinc-900';

export interface HistoryMenuProps {
  open: boolean;
  settingsOpen: boolean;
  setOpen: (open: boolean) => void;
  setSettingsOpen: (open: boolean) => void;
  buttonRef: RefObject<HTMLButtonElement | null>;
  onExport: () => void;
  onImport: () => void;
}

export function HistoryMenu({
  open,
  settingsOpen,
  setOpen,
  setSettingsOpen,
  buttonRef,
  onExport,
  onImport,
}: HistoryMenuProps) {
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const items = () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  useEffect(() => {
    if (open) items()[0]?.focus();
  }, [open]);
  useEffect(() => {
    buttonRef.current?.setAttribute('aria-controls', menuId);
    if (!open) buttonRef.current?.removeAttribute('aria-controls');
  }, [open, menuId, buttonRef]);
  // A click anywhere else closes the menu.
  useEffect(() => {
    if (!open) return;
    const close = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [open, setOpen, buttonRef]);

  function closeMenu() {
    setOpen(false);
    buttonRef.current?.focus();
  }

  function onMenuKey(event: KeyboardEvent) {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      all[(index + all.length) % all.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(all.length - 1);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      closeMenu();
    }
  }

  return (
    <>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="More"
          onKeyDown={onMenuKey}
          className={`${popoverClass} w-56 p-1`}
        >
          <MenuItem
            onSelect={() => {
              closeMenu();
              onExport();
            }}
          >
            Export history
          </MenuItem>
          <MenuItem
            onSelect={() => {
              closeMenu();
              onImport();
            }}
          >
            Import history…
          </MenuItem>
          <MenuItem
            onSelect={() => {
              setOpen(false);
              setSettingsOpen(true);
            }}
          >
            Settings…
          </MenuItem>
        </div>
      )}
      {settingsOpen && (
        <section
          aria-label="Settings"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              setSettingsOpen(false);
              buttonRef.current?.focus();
            }
          }}
          className={`${popoverClass} w-72 p-4 max-sm:fixed max-sm:inset-x-4 max-sm:w-auto`}
        >
          <div className="mb-3 flex items-center justify-between">
            <h2 className="text-sm font-semibold">Settings</h2>
            <Button size="sm" variant="ghost" onClick={() => setSettingsOpen(false)}>
              Close
            </Button>
          </div>
          {
            <LazyPart
              loading={<p className="text-sm text-zinc-600 dark:text-zinc-400">Loading…</p>}
              failed={<PartFailed what="Settings" />}
            >
              <Settings />
            </LazyPart>
          }
        </section>
      )}
    </>
  );
}
