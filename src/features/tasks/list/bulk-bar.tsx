// The bar of the Tasks screen's bulk actions, loaded once something is selected
// (./selection.tsx): how many are chosen, then download them as one zip (streamed by the server,
// progress as the bytes arrive, cancellable), re-run them (after a confirmation that says how many
// and that it spends credits; not for viewers), hide them from my view (or bring them back), copy
// their links. Escape clears the selection.
import { StarButton } from '@/features/tasks/shared/stars';
import { AddToBoardButton } from '@/features/tasks/boards/add-to-board';
import { CompareLink } from '@/features/tasks/boards/compare-link';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { BULK_IDS_MAX, RERUN_MAX, ZIP_TASKS_MAX } from '@/api/bulk-rules';
import { useMyName } from '@/api/my-name';
import { needsRole } from '@/api/roles';
import { Button, Spinner } from '@/components/ui/core/button';
import { rerunSelected, type RerunOutcome } from './bulk-rerun';
import { rerunTask } from './rerun';
import { viewOf } from '@/features/tasks/shared/task-view';
import { HIDDEN_KEY, type SlotProps } from '@/features/tasks/shared/bulk-slot';
import { downloadZip } from '@/features/tasks/requests/zip-download';
import { viewZipName } from './zip-name';
import { fetchMatchingIds, setHidden } from './bulk-api';
import { fetchTaskDetail, teamKeys, type TeamTask } from '@/features/tasks/team/team-tasks';

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** At most this many tasks are named in each list of a re-run's report; the rest are counted. */
const REPORT_NAMES_MAX = 8;

function NamedTasks({
  label,
  items,
}: {
  label: string;
  items: { id: string; task?: TeamTask; why?: string }[];
}) {
  const named = items.slice(0, REPORT_NAMES_MAX);
  return (
    <div>
      <p className="font-medium">{label}</p>
      <ul className="list-disc space-y-0.5 pl-5">
        {named.map(({ id, task, why }) => (
          <li key={id} className="break-words">
            {(task && viewOf(task).heading) ?? id}
            {why && <span className="text-zinc-700 dark:text-zinc-300">: {why}</span>}
          </li>
        ))}
        {items.length > named.length && <li>and {plural(items.length - named.length, 'more task')}</li>}
      </ul>
    </div>
  );
}

/** What a re-run that did not send everything did: which tasks re-ran, which did not and why. */
function RerunReport({ outcome, kept }: { outcome: RerunOutcome; kept: number }) {
  const total = outcome.sent.length + outcome.notSent.length;
  return (
    <div className="space-y-2">
      <p>
        <strong>
          Re-ran {outcome.sent.length.toLocaleString()} of {plural(total, 'task')}
        </strong>{' '}
        ({plural(outcome.requests, 'new request')} sent).{' '}
        <strong>{outcome.notSent.length.toLocaleString()} not re-run</strong>
        {outcome.stoppedBy ? `: stopped by ${outcome.stoppedBy}.` : '.'}
        {kept > 0 &&
          ` ${kept === 1 ? 'It stays' : 'They stay'} selected: "Re-run…" again sends only ${kept === 1 ? 'it' : 'them'}.`}
      </p>
      {outcome.sent.length > 0 && (
        <NamedTasks label="Re-ran" items={outcome.sent.map((task) => ({ id: task.id, task }))} />
      )}
      <NamedTasks label="Not re-run" items={outcome.notSent} />
    </div>
  );
}

function BulkBar({
  selected,
  viewName,
  loaded,
  note,
  showHidden,
  toggle,
  onSelectAll,
  onClear,
  onDone,
  onRemaining,
}: {
  selected: ReadonlySet<string>;
  /** What a zip of tasks from more than one request is called: the view's name. */
  viewName: string;
  loaded: ReadonlyMap<string, TeamTask>;
  note: ReactNode;
  showHidden: boolean;
  /** "Show hidden", kept within reach in the bar while something is selected. */
  toggle?: ReactNode;
  onSelectAll: () => void;
  onClear: () => void;
  /** An action finished and the selection is spent: clear it and say `message`. */
  onDone: (message: ReactNode) => void;
  /** An action did part of its work: the selection becomes what is left to do. */
  onRemaining: (ids: string[]) => void;
}) {
  const queryClient = useQueryClient();
  const viewer = useMyName().role === 'viewer';
  const ids = [...selected];
  const count = ids.length;
  const [message, setMessage] = useState<ReactNode>('');
  const [progress, setProgress] = useState<number | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [working, setWorking] = useState(false);
  const abort = useRef<AbortController | undefined>(undefined);
  const hidden = queryClient.getQueryData<ReadonlySet<string>>(HIDDEN_KEY);
  const unhide = showHidden && ids.some((id) => hidden?.has(id));

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (confirming) setConfirming(false);
      else if (!abort.current) onClear();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [confirming, onClear]);
  useEffect(() => () => abort.current?.abort(), []);

  const zip = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setMessage('');
    setProgress(0);
    try {
      const { fileName, received } = await downloadZip(ids, controller.signal, setProgress, viewName);
      setMessage(`Saved ${fileName} (${formatBytes(received)}).`);
    } catch (error) {
      setMessage(
        controller.signal.aborted ? 'Download cancelled.' : `The zip failed: ${(error as Error).message}`,
      );
    } finally {
      abort.current = undefined;
      setProgress(undefined);
    }
  };

  const rerun = async () => {
    setConfirming(false);
    setWorking(true);
    setMessage('');
    try {
      const found = await Promise.all(
        ids.map(async (id) => ({
          id,
          task: loaded.get(id) ?? (await fetchTaskDetail(id).catch(() => null))?.task,
        })),
      );
      const outcome = await rerunSelected(found, rerunTask);
      if (!outcome.notSent.length) {
        onDone(`Re-ran ${plural(count, 'task')}: ${plural(outcome.requests, 'new request')} sent.`);
        return;
      }
      // What can still be sent stays selected; what never can (no request to send) is only named.
      const remaining = outcome.notSent.filter((item) => item.task?.params).map((item) => item.id);
      const report = <RerunReport outcome={outcome} kept={remaining.length} />;
      if (!remaining.length) {
        onDone(report);
        return;
      }
      onRemaining(remaining);
      setMessage(report);
    } finally {
      setWorking(false);
    }
  };

  const hide = async (hiddenNow: boolean) => {
    setWorking(true);
    const refused = await setHidden(ids, hiddenNow).catch((error: unknown) => error as Error);
    setWorking(false);
    if (refused) {
      setMessage(`Could not change your view: ${refused.message}`);
      return;
    }
    queryClient.setQueryData<ReadonlySet<string>>(HIDDEN_KEY, (before) => {
      const next = new Set(before);
      for (const id of ids) {
        if (hiddenNow) next.add(id);
        else next.delete(id);
      }
      return next;
    });
    // The server's pages and counts leave out what I hid: read them again (the cards go at once).
    void queryClient.invalidateQueries({ queryKey: teamKeys.lists() });
    onDone(
      hiddenNow
        ? `Hid ${plural(count, 'task')} from your view. "Show hidden" brings them back.`
        : `${plural(count, 'task')} back in your view.`,
    );
  };

  const copyLinks = async () => {
    const links = ids.map((id) => `${location.origin}/tasks/${encodeURIComponent(id)}`).join('\n');
    try {
      await navigator.clipboard.writeText(links);
      setMessage(`Copied ${plural(count, 'link')}, one per line.`);
    } catch {
      setMessage('The clipboard refused the links.');
    }
  };

  const tooManyForZip = count > ZIP_TASKS_MAX;
  const tooManyToRerun = count > RERUN_MAX;
  const rerunReason = viewer
    ? needsRole('creator', 're-run tasks')
    : tooManyToRerun
      ? `Re-run at most ${RERUN_MAX} tasks at once.`
      : undefined;
  return (
    <div
      role="region"
      aria-label="Selected tasks"
      // Over the foot of the window, not in the page: appearing, it moves no card under the pointer.
      className="fixed inset-x-3 bottom-3 z-30 mx-auto max-w-6xl space-y-2 rounded-xl border border-indigo-200 bg-indigo-50/95 px-3 py-2 text-sm shadow-lg backdrop-blur dark:border-indigo-900 dark:bg-indigo-950/90"
    >
      <div className="flex flex-wrap items-center gap-2">
        <p className="mr-1 font-semibold" aria-live="polite">
          {plural(count, 'task')} selected
        </p>
        {progress === undefined ? (
          <Button
            size="sm"
            variant="primary"
            disabled={tooManyForZip || working}
            aria-describedby={tooManyForZip ? 'bulk-zip-reason' : undefined}
            onClick={() => void zip()}
          >
            Download zip
          </Button>
        ) : (
          <Button size="sm" onClick={() => abort.current?.abort()}>
            Cancel download
          </Button>
        )}
        <Button
          size="sm"
          disabled={Boolean(rerunReason) || working || confirming}
          aria-describedby={rerunReason ? 'bulk-rerun-reason' : undefined}
          onClick={() => setConfirming(true)}
        >
          Re-run…
        </Button>
        <Button size="sm" disabled={working} onClick={() => void hide(!unhide)}>
          {unhide ? 'Unhide' : 'Hide from my view'}
        </Button>
        <Button size="sm" onClick={() => void copyLinks()}>
          Copy links
        </Button>
        <StarButton
          ids={ids}
          what={plural(count, 'selected task')}
          label
          className="rounded-lg border border-zinc-300 bg-white dark:border-zinc-700 dark:bg-zinc-900"
        />
        <AddToBoardButton
          ids={ids}
          what={plural(count, 'selected task')}
          className="border border-zinc-300 bg-white dark:border-zinc-700 dark:bg-zinc-900"
        />
        <CompareLink ids={ids} />
        {count < BULK_IDS_MAX && (
          <Button size="sm" variant="ghost" onClick={onSelectAll}>
            Select all matching
          </Button>
        )}
        <Button size="sm" variant="ghost" onClick={onClear} aria-keyshortcuts="Escape">
          Clear
        </Button>
        {toggle && <div className="sm:ml-auto">{toggle}</div>}
      </div>
      {confirming && (
        <div
          role="alertdialog"
          aria-label="Re-run the selected tasks"
          aria-describedby="bulk-rerun-question"
          className="flex flex-wrap items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-50"
        >
          <p id="bulk-rerun-question">
            Re-run {plural(count, 'task')}? Each is created again as a new task in your name and spends
            credits.
          </p>
          <Button size="sm" variant="primary" autoFocus onClick={() => void rerun()}>
            Re-run {plural(count, 'task')}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
        </div>
      )}
      {progress !== undefined && (
        <p role="status" className="flex items-center gap-2">
          <Spinner /> Making the zip… {formatBytes(progress)} received
        </p>
      )}
      {working && (
        <p role="status" className="flex items-center gap-2">
          <Spinner /> Working…
        </p>
      )}
      {(message || note) && <div role="status">{message || note}</div>}
      {tooManyForZip && (
        <p id="bulk-zip-reason" className="text-xs text-zinc-700 dark:text-zinc-300">
          A zip holds the files of at most {ZIP_TASKS_MAX} tasks: select fewer to download them.
        </p>
      )}
      {rerunReason && (
        <p id="bulk-rerun-reason" className="text-xs text-zinc-700 dark:text-zinc-300">
          {rerunReason}
        </p>
      )}
    </div>
  );
}

/** The slot of ./selection.tsx once loaded: "Select all matching" and "Show hidden", or the bar. */
export function BulkSlot({
  query,
  selected,
  setSelected,
  loaded,
  hiddenCount,
  showHidden,
  onShowHidden,
  selectAllNow,
}: SlotProps & {
  /** "Select all matching" was pressed before this code had loaded. */
  selectAllNow: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<ReactNode>('');
  const selectAll = async () => {
    setBusy(true);
    setNote('');
    try {
      const { ids, capped } = await fetchMatchingIds(query);
      setSelected(ids);
      if (capped)
        setNote(`Selected the newest ${ids.length.toLocaleString()}: the most one selection holds.`);
    } catch (error) {
      setNote(`Could not select all: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  const asked = useRef(false);
  useEffect(() => {
    if (!selectAllNow || asked.current) return;
    asked.current = true;
    void selectAll();
  });
  // Whether or not something is selected: the bar must not take it away.
  const toggle = (hiddenCount > 0 || showHidden) && (
    <label className="flex min-h-8 items-center gap-2 text-zinc-700 dark:text-zinc-300">
      <input
        type="checkbox"
        checked={showHidden}
        onChange={(event) => onShowHidden(event.target.checked)}
        className="size-4 accent-indigo-600"
      />
      Show hidden ({hiddenCount})
    </label>
  );
  if (selected.size)
    return (
      <>
        {/* Where "Select all matching" stood, the same height: the cards below stay where they are. */}
        <div aria-hidden="true" className="h-8" />
        <BulkBar
          selected={selected}
          viewName={viewZipName(query)}
          loaded={loaded}
          note={note}
          showHidden={showHidden}
          toggle={toggle}
          onSelectAll={() => void selectAll()}
          onClear={() => {
            setSelected([]);
            setNote('');
          }}
          onDone={(message) => {
            setSelected([]);
            setNote(message);
          }}
          onRemaining={setSelected}
        />
      </>
    );
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      <Button size="sm" variant="ghost" disabled={busy} onClick={() => void selectAll()}>
        {busy && <Spinner />} Select all matching
      </Button>
      {toggle}
      {note && <div role="status">{note}</div>}
    </div>
  );
}
