// "Download all languages" under a translation request's tiles: every finished language's video
// (and captions) in one zip, made by the server and named after the request ("All-hands recap.zip").
import { useEffect, useId, useRef, useState } from 'react';
import { DownloadIcon } from './tile-actions';

export function DownloadAllLanguages({ ids, ready }: { ids: readonly string[]; ready: number }) {
  const waitingId = useId();
  const [working, setWorking] = useState(false);
  const [message, setMessage] = useState('');
  const abort = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => abort.current?.abort(), []);
  const download = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setWorking(true);
    setMessage('');
    try {
      // Loaded on the press: the Tasks screen's first load shares these tiles' code, not this.
      const { downloadZip } = await import('@/features/tasks/requests/zip-download');
      const { fileName } = await downloadZip([...ids], controller.signal);
      setMessage(`Saved ${fileName}.`);
    } catch (error) {
      if (!controller.signal.aborted) setMessage(`The zip failed: ${(error as Error).message}`);
    } finally {
      abort.current = undefined;
      setWorking(false);
    }
  };
  const waiting = ids.length - ready;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 pt-1">
      <button
        type="button"
        onClick={() => void download()}
        disabled={working || ready === 0}
        aria-describedby={waiting > 0 ? waitingId : undefined}
        className="inline-flex min-h-8 items-center gap-1.5 rounded-lg border border-indigo-300 bg-white px-3 py-1 text-sm font-medium text-indigo-800 hover:bg-indigo-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-indigo-700 dark:bg-zinc-900 dark:text-indigo-200 dark:hover:bg-indigo-950"
      >
        <DownloadIcon />
        {working ? 'Making the zip…' : 'Download all languages'}
      </button>
      {waiting > 0 && (
        <span id={waitingId} className="text-xs text-zinc-600 dark:text-zinc-400">
          {ready === 0
            ? 'Once a language is done'
            : `${waiting} ${waiting === 1 ? 'language is' : 'languages are'} not done yet: the zip lists ${waiting === 1 ? 'it' : 'them'} as not included`}
        </span>
      )}
      <p role="status" className="w-full text-xs text-zinc-700 empty:hidden dark:text-zinc-300">
        {message}
      </p>
    </div>
  );
}
