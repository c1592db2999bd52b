// A new task as a link to its page, under its label ("Image 2", "Japanese"): what a request's
// tile shows until its task is known here, and the panel's list while the tiles load.
import { Link } from 'wouter';

export function LabelledTaskId({ id, label }: { id: string; label: string }) {
  return (
    <>
      <span className="block text-xs font-medium text-zinc-600 dark:text-zinc-400">{label}</span>
      {/* Ids are long and opaque: shown whole (break-all) so they can be read and compared. */}
      <Link
        href={`/tasks/${encodeURIComponent(id)}`}
        className="font-mono text-[13px] font-medium break-all text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
      >
        {id}
      </Link>
    </>
  );
}
