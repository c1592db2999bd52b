// The local files a task was created from, by the field they went into: "reference image:
// moodboard.png". Names come from this browser's record, or the team record's (which learnt them
// from the uploads that passed through the console).
import { requestFileLabel, type RequestFile } from '@/api/task-detail/request-files';
import { safeMediaUrl } from '@/features/tasks/shared/safe-url';

export function RequestFiles({ files }: { files: readonly RequestFile[] | undefined }) {
  // A record from an imported file or another version may carry anything here.
  if (!Array.isArray(files) || files.length === 0) return null;
  return (
    <section aria-labelledby="files-heading" className="space-y-2">
      <h2 id="files-heading" className="font-semibold">
        Uploaded files
      </h2>
      <ul className="space-y-1 text-sm">
        {files.map((file) => {
          const href = safeMediaUrl(file.url);
          return (
            <li key={`${file.field}-${file.url}`} className="break-all">
              <span className="text-zinc-600 dark:text-zinc-400">{requestFileLabel(file.field)}:</span>{' '}
              {href ? (
                <a
                  href={href}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                >
                  {file.name}
                </a>
              ) : (
                <span className="font-medium">{file.name}</span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
