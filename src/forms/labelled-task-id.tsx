import { Link } from 'wouter';

/** A task's label ("Image 2", a language) over its id, the id linking to the task's page. */
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
