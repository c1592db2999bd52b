// The share dialog: make a link to a board or a request for people with no account, choose how long
// it lives, copy it (it is shown this once: the server keeps only its hash), and see and revoke the
// live links to the same thing. The lifetime is checked with the server's own rule (src/api/shares.ts)
// and a refusal shows by the field. A native modal <dialog>.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import {
  checkShareBody,
  SHARE_DAYS_DEFAULT,
  SHARE_DAYS_MAX,
  SHARE_DAYS_MIN,
  type ShareSummary,
  type ShareTarget,
} from '@/api/shares';
import { Button } from '@/components/ui/core/button';
import { CopyButton } from '@/components/ui/copy-button';
import { ModalDialog } from '@/components/ui/modal-dialog';
import { Field } from '@/components/ui/field';
import { errorTextClass, hintClass, inputClass } from '@/components/ui/styles';
import { createShare, listShares, openingsOf, revokeShare, shareDay, type CreatedShare } from './shares-api';

/** The lifetime field's problem in the server's words, or undefined. */
export function daysProblem(days: string): string | undefined {
  const n = Number(days);
  if (days.trim() === '' || !Number.isInteger(n)) return 'Enter a whole number of days';
  const checked = checkShareBody({ board: 'x', expiresInDays: n });
  return 'msg' in checked ? checked.msg : undefined;
}

export function ShareDialog({
  target,
  what,
  onClose,
}: {
  target: ShareTarget;
  what: string;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [days, setDays] = useState(String(SHARE_DAYS_DEFAULT));
  const [problem, setProblem] = useState<string>();
  const [created, setCreated] = useState<CreatedShare>();
  const [busy, setBusy] = useState(false);
  const [links, setLinks] = useState<ShareSummary[]>();
  const [listError, setListError] = useState('');
  const kind = 'board' in target ? 'board' : 'request';

  const load = useCallback(() => {
    listShares(target)
      .then((list) => {
        setLinks(list);
        setListError('');
      })
      .catch((error: Error) => setListError(error.message));
    // The target is the same object's fields for the dialog's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, ['board' in target ? target.board : target.request]);
  useEffect(() => {
    load();
  }, [load]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = daysProblem(days);
    setProblem(found);
    if (found) return;
    setBusy(true);
    try {
      setCreated(await createShare(target, Number(days)));
      load();
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <ModalDialog title={`Share “${what}”`} width="wide" dialogRef={ref} onClose={onClose}>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Anyone with the link sees this {kind}’s finished results, their titles and who made them, without
        signing in. Nothing else of the console. You can revoke it at any time.
      </p>
      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-wrap items-start gap-3">
        <DaysField days={days} problem={problem} onChange={setDays} />
        <Button type="submit" variant="primary" disabled={busy} className="sm:mt-6.5">
          Create link
        </Button>
      </form>
      {created && <CreatedLink created={created} />}
      <LiveLinks links={links} error={listError} onRevoked={load} />
    </ModalDialog>
  );
}

/** How many days the new link lives, with the server's bounds and its refusal. */
function DaysField({
  days,
  problem,
  onChange,
}: {
  days: string;
  problem?: string;
  onChange: (days: string) => void;
}) {
  return (
    <Field
      label="Link lives (days)"
      error={problem}
      hint={`${SHARE_DAYS_MIN} to ${SHARE_DAYS_MAX}`}
      className="w-44"
    >
      {(control) => (
        <input
          {...control}
          type="number"
          inputMode="numeric"
          min={SHARE_DAYS_MIN}
          max={SHARE_DAYS_MAX}
          step={1}
          value={days}
          onChange={(event) => onChange(event.target.value)}
          className={inputClass}
        />
      )}
    </Field>
  );
}

/** The new link, shown this once, with Copy and Open. */
function CreatedLink({ created }: { created: CreatedShare }) {
  return (
    <div
      role="status"
      className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-800 dark:bg-emerald-950"
    >
      <p className="font-medium text-emerald-900 dark:text-emerald-100">
        Copy the link now: for safety it is not shown again.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          readOnly
          aria-label="Share link"
          value={created.url}
          onFocus={(event) => event.currentTarget.select()}
          className={`${inputClass} min-w-0 flex-1 font-mono text-xs`}
        />
        <CopyButton text={created.url} label="Copy link" />
      </div>
      <p className={hintClass}>
        Open until {shareDay(created.expiresAt)}.{' '}
        <a href={created.url} target="_blank" rel="noreferrer" className="font-medium underline">
          Open it
        </a>
      </p>
    </div>
  );
}

function LiveLinks({
  links,
  error,
  onRevoked,
}: {
  links?: ShareSummary[];
  error: string;
  onRevoked: () => void;
}) {
  if (error)
    return (
      <p role="alert" className={errorTextClass}>
        {error}
      </p>
    );
  if (!links?.length) return null;
  return (
    <section aria-label="Live links" className="space-y-2">
      <h3 className="text-sm font-semibold">Live links</h3>
      <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {links.map((link) => (
          <ShareRow key={link.id} link={link} onRevoked={onRevoked} />
        ))}
      </ul>
    </section>
  );
}

/** One live link with its Revoke (asked twice, in place). Also the People screen's rows. */
export function ShareRow({
  link,
  onRevoked,
  showTitle = false,
}: {
  link: ShareSummary;
  onRevoked: () => void;
  showTitle?: boolean;
}) {
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState('');
  const revoke = async () => {
    try {
      await revokeShare(link.id);
      onRevoked();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <li className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
      <span className="min-w-0 flex-1">
        {showTitle && (
          <Link
            href={
              link.board
                ? `/boards/${encodeURIComponent(link.board)}`
                : `/requests/${encodeURIComponent(link.request ?? '')}`
            }
            className="block truncate font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            {link.board ? 'Board' : 'Request'}: {link.title}
          </Link>
        )}
        <span className="text-zinc-700 dark:text-zinc-300">
          {link.createdBy ? `Made by ${link.createdBy}` : 'Made'} on {shareDay(link.createdAt)}, open until{' '}
          {shareDay(link.expiresAt)}
        </span>
        <span className="block text-xs text-zinc-600 dark:text-zinc-400">{openingsOf(link)}</span>
        {error && (
          <span role="alert" className={`block ${errorTextClass}`}>
            {error}
          </span>
        )}
      </span>
      {confirm ? (
        <span role="group" aria-label="Revoke the link" className="inline-flex shrink-0 items-center gap-1">
          <Button size="sm" variant="danger" onClick={() => void revoke()}>
            Revoke link
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirm(false)}>
            Keep
          </Button>
        </span>
      ) : (
        <Button size="sm" variant="ghost" className="shrink-0" onClick={() => setConfirm(true)}>
          Revoke…
        </Button>
      )}
    </li>
  );
}
