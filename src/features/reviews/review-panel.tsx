// One result's review: every person's current decision (who, what, when), the comments (each
// deletable by its author or an admin), and the form to decide and comment. Viewers review too.
// The bounds are the server's own rule (src/api/reviews.ts), said by the field before asking.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useMyName } from '@/api/my-name';
import {
  checkReviewChange,
  DECISION_LABELS,
  REVIEW_COMMENT_MAX,
  REVIEW_DECISIONS,
  type ReviewChange,
  type ReviewDecision,
  type ReviewView,
} from '@/api/reviews';
import { Button, Spinner } from '@/components/ui/core/button';
import { deleteReviewComment, fetchReview, ReviewError, reviewKey, sendReview } from './reviews-api';

/** The status badge's look (src/features/tasks/shared/status-badge.tsx), as the cards' badge has it. */
const PILL = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset';
const TONES: Record<ReviewDecision, string> = {
  approved:
    'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800',
  changes_requested:
    'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-800',
};

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function DecisionPill({ decision }: { decision: ReviewDecision }) {
  return <span className={`${PILL} ${TONES[decision]}`}>{DECISION_LABELS[decision]}</span>;
}

function Time({ at }: { at: number }) {
  return (
    <time dateTime={new Date(at).toISOString()} className="text-xs text-zinc-500 dark:text-zinc-400">
      {when.format(at)}
    </time>
  );
}

type Choice = ReviewDecision | 'none';
const CHOICES: { value: Choice; label: string }[] = [
  { value: 'none', label: 'No decision' },
  ...REVIEW_DECISIONS.map((value) => ({ value, label: DECISION_LABELS[value] })),
];

/** What the form sends: the decision only when it changed (none clears mine), the comment when written. */
function changeOf(choice: Choice, mine: Choice, comment: string): ReviewChange {
  return {
    ...(choice !== mine && { decision: choice === 'none' ? null : choice }),
    ...(comment.trim() && { comment }),
  };
}

function ReviewForm({
  taskId,
  mine,
  onSaved,
}: {
  taskId: string;
  mine: Choice;
  onSaved: (data: ReviewView) => void;
}) {
  const id = useId();
  const [choice, setChoice] = useState<Choice>();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<{ field: string; msg: string }>();
  const shown = choice ?? mine;
  const save = useMutation({
    mutationFn: (change: ReviewChange) => sendReview(taskId, change),
    onSuccess: (data) => {
      setComment('');
      setChoice(undefined);
      onSaved(data);
    },
    onError: (failure) =>
      setError({
        field: failure instanceof ReviewError && failure.field === 'decision' ? 'decision' : 'comment',
        msg: failure.message,
      }),
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const change = changeOf(shown, mine, comment);
    const checked = checkReviewChange(change);
    if ('field' in checked) return setError(checked);
    setError(undefined);
    save.mutate(change);
  };
  const length = [...comment.trim()].length;
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Your review"
      className="space-y-3 border-t border-zinc-200 pt-4 dark:border-zinc-800"
    >
      <fieldset aria-describedby={error?.field === 'decision' ? `${id}-decision-error` : undefined}>
        <legend className="text-sm font-medium">Your decision</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {CHOICES.map(({ value, label }) => (
            <label key={value} className="inline-flex min-h-8 cursor-pointer items-center gap-2 text-sm">
              <input
                type="radio"
                name={`${id}-decision`}
                value={value}
                checked={shown === value}
                onChange={() => setChoice(value)}
                className="size-4 accent-indigo-600"
              />
              {label}
            </label>
          ))}
        </div>
        {error?.field === 'decision' && (
          <p id={`${id}-decision-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
            {error.msg}
          </p>
        )}
      </fieldset>
      <div>
        <label htmlFor={`${id}-comment`} className="text-sm font-medium">
          Comment
        </label>
        <textarea
          id={`${id}-comment`}
          rows={3}
          value={comment}
          aria-invalid={error?.field === 'comment' ? true : undefined}
          aria-describedby={`${id}-comment-note`}
          onChange={(event) => setComment(event.target.value)}
          className="mt-1 w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm shadow-xs dark:border-zinc-700 dark:bg-zinc-950"
        />
        <p
          id={`${id}-comment-note`}
          className={`mt-1 text-xs ${error?.field === 'comment' ? 'text-sm text-red-700 dark:text-red-300' : length > REVIEW_COMMENT_MAX ? 'text-red-700 dark:text-red-300' : 'text-zinc-500 dark:text-zinc-400'}`}
        >
          {error?.field === 'comment'
            ? error.msg
            : `${length} / ${REVIEW_COMMENT_MAX} characters. Optional with a decision.`}
        </p>
      </div>
      <Button type="submit" variant="primary" pending={save.isPending}>
        Send
      </Button>
    </form>
  );
}

export function ReviewPanel({ taskId, review }: { taskId: string; review?: unknown }) {
  const client = useQueryClient();
  const me = useMyName();
  const key = reviewKey(taskId, JSON.stringify(review ?? null));
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchReview(taskId, signal) });
  const saved = (data: ReviewView) => client.setQueryData(key, data);
  const remove = useMutation({
    mutationFn: (commentId: string) => deleteReviewComment(taskId, commentId),
    onSuccess: saved,
  });
  if (query.isPending)
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
        <Spinner /> Loading the review…
      </p>
    );
  if (query.isError)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        The review could not be read ({query.error.message}).
      </p>
    );
  const { decisions, comments } = query.data;
  const mine = decisions.find((each) => each.userId === me.id)?.decision ?? 'none';
  // Without sign-in roles (a console on one's own machine) the person is the local admin.
  const mayDelete = (userId: string) => userId === me.id || me.role === 'admin' || !me.role;
  return (
    <div className="space-y-4">
      <section aria-label="Decisions" className="space-y-1">
        <h3 className="text-sm font-medium">Decisions</h3>
        {decisions.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Nobody has decided yet.</p>
        ) : (
          <ul className="space-y-1">
            {decisions.map((each) => (
              <li key={each.userId} className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-sm">
                <span className="font-medium">{each.name}</span>
                <DecisionPill decision={each.decision} />
                <Time at={each.at} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-label="Comments" className="space-y-2">
        <h3 className="text-sm font-medium">Comments</h3>
        {comments.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No comments yet.</p>
        ) : (
          <ul className="max-h-72 space-y-2 overflow-y-auto">
            {comments.map((each) => (
              <li key={each.id} className="rounded-lg bg-zinc-50 px-3 py-2 dark:bg-zinc-800/60">
                <div className="flex items-start gap-2">
                  <span className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-0.5">
                    <span className="text-sm font-medium">{each.name}</span>
                    {each.decision && <DecisionPill decision={each.decision} />}
                    <Time at={each.at} />
                  </span>
                  {mayDelete(each.userId) && (
                    <button
                      type="button"
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(each.id)}
                      aria-label={
                        each.userId === me.id ? 'Delete your comment' : `Delete ${each.name}’s comment`
                      }
                      className="-my-1 min-h-8 shrink-0 rounded-md px-2 text-xs font-medium text-red-700 hover:bg-red-50 disabled:opacity-50 dark:text-red-300 dark:hover:bg-red-950"
                    >
                      Delete
                    </button>
                  )}
                </div>
                <p className="mt-1 text-sm break-words whitespace-pre-wrap">{each.body}</p>
              </li>
            ))}
          </ul>
        )}
        {remove.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {remove.error.message}
          </p>
        )}
      </section>
      <ReviewForm key={mine} taskId={taskId} mine={mine} onSaved={saved} />
    </div>
  );
}
