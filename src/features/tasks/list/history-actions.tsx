// The Tasks screen's "More" menu: export / import of this browser's history, and Settings
// (tasks-settings.tsx, loaded when the menu is first pointed at, focused or opened). A menu button
// with the WAI-ARIA menu pattern: arrows move between the items, Escape closes it and focus goes
// back to the button.
import { lazy, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { LazyPart, PartFailed } from '@/components/ui/core/lazy-part';
import { Button } from '@/components/ui/core/button';

const Settings = lazy(() => import('./tasks-settings').then((m) => ({ default: m.Settings })));

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

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

export function HistoryActions() {
  const fileRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState<'export' | 'import' | null>(null);
  const [open, setOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The settings' code loads from the first sign of interest, so it is there when they open.
  const [settingsWanted, setSettingsWanted] = useState(false);
  const wantSettings = () => setSettingsWanted(true);

  const items = () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  useEffect(() => {
    if (open) items()[0]?.focus();
  }, [open]);
  // A click anywhere else closes the menu.
  useEffect(() => {
    if (!open) return;
    const close = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [open]);

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

  async function onExport() {
    setBusy('export');
    try {
      // The file format's schema (zod) loads only when a file is written or read.
      const { exportHistory } = await import('@/features/tasks/history/history-transfer');
      download(`task-history-${new Date().toISOString().slice(0, 10)}.json`, await exportHistory());
    } finally {
      setBusy(null);
    }
  }

  async function onImport(file: File) {
    setBusy('import');
    try {
      const { importHistory } = await import('@/features/tasks/history/history-transfer');
      const outcome = await importHistory(await file.text());
      const rejected = outcome.rejected
        ? ` Skipped ${outcome.rejected} invalid entr${outcome.rejected === 1 ? 'y' : 'ies'} (${outcome.problems.join('; ')}).`
        : '';
      setMessage({
        tone: 'ok',
        text: `Imported: ${outcome.added} new, ${outcome.updated} updated, ${outcome.unchanged} unchanged.${rejected}`,
      });
    } catch (error) {
      setMessage({ tone: 'error', text: `Import failed: ${(error as Error).message}` });
    } finally {
      setBusy(null);
      if (fileRef.current) fileRef.current.value = '';
    }
  }

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="relative">
        <Button
          ref={buttonRef}
          size="sm"
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open ? menuId : undefined}
          pending={busy !== null}
          onPointerEnter={wantSettings}
          onFocus={wantSettings}
          onClick={() => {
            setSettingsOpen(false);
            setOpen((was) => !was);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown' && !open) {
              event.preventDefault();
              setOpen(true);
            }
          }}
        >
          More
        </Button>
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
                void onExport();
              }}
            >
              Export history
            </MenuItem>
            <MenuItem
              onSelect={() => {
                closeMenu();
                fileRef.current?.click();
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
            {settingsWanted && (
              <LazyPart
                loading={<p className="text-sm text-zinc-600 dark:text-zinc-400">Loading…</p>}
                failed={<PartFailed what="Settings" />}
              >
                <Settings />
              </LazyPart>
            )}
          </section>
        )}
        <input
          ref={fileRef}
          type="file"
          accept="application/json,.json"
          aria-label="Import task history file"
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void onImport(file);
          }}
        />
      </div>
      <p
        role="status"
        className={`text-right text-xs ${message?.tone === 'error' ? 'font-medium text-red-700 dark:text-red-400' : 'text-zinc-600 dark:text-zinc-400'}`}
      >
        {message?.text}
      </p>
    </div>
  );
}
