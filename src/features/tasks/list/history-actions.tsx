// The Tasks screen's "More" menu: export / import of this browser's history, and Settings. The button
// is here; the menu and the settings (./history-menu.tsx) load when it is first pointed at, focused
// or opened.
import { lazy, useRef, useState } from 'react';
import { LazyPart } from '@/components/ui/core/lazy-part';
import { Button } from '@/components/ui/core/button';

const HistoryMenu = lazy(() => import('./history-menu').then((m) => ({ default: m.HistoryMenu })));

export function HistoryActions() {
  const fileRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState<'export' | 'import' | null>(null);
  const [open, setOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // The menu's code loads from the first sign of interest, so it is there when it opens.
  const [menuWanted, setMenuWanted] = useState(false);
  const wantMenu = () => setMenuWanted(true);

  async function onExport() {
    setBusy('export');
    try {
      const { downloadHistory } = await import('./history-file');
      await downloadHistory();
    } finally {
      setBusy(null);
    }
  }

  async function onImport(file: File) {
    setBusy('import');
    try {
      // A file that cannot be read or loaded at all says so, as a refused one does.
      const outcome = await import('./history-file')
        .then(({ importHistoryFile }) => importHistoryFile(file))
        .catch((error: unknown) => ({
          tone: 'error' as const,
          text: `Import failed: ${(error as Error).message}`,
        }));
      setMessage(outcome);
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
          pending={busy !== null}
          onPointerEnter={wantMenu}
          onFocus={wantMenu}
          onClick={() => {
            wantMenu();
            setSettingsOpen(false);
            setOpen((was) => !was);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown' && !open) {
              event.preventDefault();
              wantMenu();
              setOpen(true);
            }
          }}
        >
          More
        </Button>
        {menuWanted && (open || settingsOpen) && (
          <LazyPart>
            <HistoryMenu
              open={open}
              settingsOpen={settingsOpen}
              setOpen={setOpen}
              setSettingsOpen={setSettingsOpen}
              buttonRef={buttonRef}
              onExport={() => void onExport()}
              onImport={() => fileRef.current?.click()}
            />
          </LazyPart>
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
