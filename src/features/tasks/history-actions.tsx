// Export / import of the history, and the Settings menu (tasks-settings.tsx, loaded when the menu
// is first pointed at, focused or opened).
import { lazy, useRef, useState } from 'react';
import { LazyPart, PartFailed } from '@/components/ui/lazy-part';
import { Button } from '@/components/ui/button';

const Settings = lazy(() => import('./tasks-settings').then((m) => ({ default: m.Settings })));

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function HistoryActions() {
  const fileRef = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState<'export' | 'import' | null>(null);
  // The menu's content renders (closed) from the first sign of interest, so it is there when it opens.
  const [settingsWanted, setSettingsWanted] = useState(false);
  const wantSettings = () => setSettingsWanted(true);

  async function onExport() {
    setBusy('export');
    try {
      // The file format's schema (zod) loads only when a file is written or read.
      const { exportHistory } = await import('./history-transfer');
      download(`task-history-${new Date().toISOString().slice(0, 10)}.json`, await exportHistory());
    } finally {
      setBusy(null);
    }
  }

  async function onImport(file: File) {
    setBusy('import');
    try {
      const { importHistory } = await import('./history-transfer');
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
      <div className="flex flex-wrap items-center justify-end gap-2">
        <Button size="sm" onClick={() => void onExport()} pending={busy === 'export'}>
          Export
        </Button>
        <Button size="sm" onClick={() => fileRef.current?.click()} pending={busy === 'import'}>
          Import
        </Button>
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
        <details className="relative" onToggle={wantSettings}>
          <summary
            onPointerEnter={wantSettings}
            onFocus={wantSettings}
            className="cursor-pointer list-none rounded-lg border border-zinc-300 bg-white px-2.5 py-1.5 text-sm font-medium text-zinc-800 shadow-xs hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
          >
            Settings
          </summary>
          <div className="absolute right-0 z-10 mt-2 w-72 max-sm:fixed max-sm:inset-x-4 max-sm:w-auto rounded-xl border border-zinc-200 bg-white p-4 shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
            {settingsWanted && (
              <LazyPart
                loading={<p className="text-sm text-zinc-600 dark:text-zinc-400">Loading…</p>}
                failed={<PartFailed what="Settings" />}
              >
                <Settings />
              </LazyPart>
            )}
          </div>
        </details>
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
