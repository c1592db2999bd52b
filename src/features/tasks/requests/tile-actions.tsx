// The actions of a result tile on a form (Open, Download, Use this prompt, Animate) as one row of
// square icon buttons, each with its name for screen readers and as a tooltip: four results fit
// beside the form at 1280 x 800, where four stacked text buttons a tile left room for two.
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useMyName } from '@/api/my-name';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { animateTarget } from '@/features/tasks/shared/animate-link';
import type { TaskView } from '@/features/tasks/shared/task-view';

/** 28 px tall, 24 to 28 px wide: past WCAG 2.2's 24 px target size, four in a row of a 140 px tile. */
export const iconActionClass =
  'inline-flex h-7 w-full min-w-6 items-center justify-center rounded-md border border-zinc-200 bg-white text-indigo-700 hover:border-indigo-300 hover:bg-indigo-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-indigo-300 dark:hover:border-indigo-700 dark:hover:bg-indigo-950';

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
      {children}
    </svg>
  );
}

export function OpenIcon() {
  return (
    <Icon>
      <path d="M4.25 5.5a.75.75 0 0 0-.75.75v8.5c0 .414.336.75.75.75h8.5a.75.75 0 0 0 .75-.75v-4a.75.75 0 0 1 1.5 0v4A2.25 2.25 0 0 1 12.75 17h-8.5A2.25 2.25 0 0 1 2 14.75v-8.5A2.25 2.25 0 0 1 4.25 4h5a.75.75 0 0 1 0 1.5h-5Z" />
      <path d="M6.194 12.753a.75.75 0 0 0 1.06.053L16.5 4.44v2.81a.75.75 0 0 0 1.5 0v-4.5a.75.75 0 0 0-.75-.75h-4.5a.75.75 0 0 0 0 1.5h2.553l-9.056 8.194a.75.75 0 0 0-.053 1.06Z" />
    </Icon>
  );
}

export function DownloadIcon() {
  return (
    <Icon>
      <path d="M10.75 2.75a.75.75 0 0 0-1.5 0v8.614L6.295 8.235a.75.75 0 1 0-1.09 1.03l4.25 4.5a.75.75 0 0 0 1.09 0l4.25-4.5a.75.75 0 0 0-1.09-1.03l-2.955 3.129V2.75Z" />
      <path d="M3.5 12.75a.75.75 0 0 0-1.5 0v2.5A2.75 2.75 0 0 0 4.75 18h10.5A2.75 2.75 0 0 0 18 15.25v-2.5a.75.75 0 0 0-1.5 0v2.5c0 .69-.56 1.25-1.25 1.25H4.75c-.69 0-1.25-.56-1.25-1.25v-2.5Z" />
    </Icon>
  );
}

function ReuseIcon() {
  return (
    <Icon>
      <path
        fillRule="evenodd"
        clipRule="evenodd"
        d="M7.793 2.232a.75.75 0 0 1-.025 1.06L3.622 7.25h10.003a5.375 5.375 0 0 1 0 10.75H10.75a.75.75 0 0 1 0-1.5h2.875a3.875 3.875 0 0 0 0-7.75H3.622l4.146 3.957a.75.75 0 0 1-1.036 1.085l-5.5-5.25a.75.75 0 0 1 0-1.085l5.5-5.25a.75.75 0 0 1 1.06.025Z"
      />
    </Icon>
  );
}

export function OpenAction({ href, label }: { href: string; label: string }) {
  const name = `Open ${label}`;
  return (
    <Link href={href} className={iconActionClass} aria-label={name} title={name}>
      <OpenIcon />
    </Link>
  );
}

export function DownloadAction({ href, fileName, label }: { href: string; fileName: string; label: string }) {
  const name = `Download ${label}`;
  return (
    <a href={href} download={fileName} className={iconActionClass} aria-label={name} title={name}>
      <DownloadIcon />
    </a>
  );
}

export function ReuseAction({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      className={iconActionClass}
      aria-label="Use this prompt"
      title="Use this prompt"
      onClick={onClick}
    >
      <ReuseIcon />
    </button>
  );
}

function PlayIcon() {
  return (
    <Icon>
      <path d="M6.3 2.84A1.5 1.5 0 0 0 4 4.11v11.78a1.5 1.5 0 0 0 2.3 1.27l9.34-5.89a1.5 1.5 0 0 0 0-2.54L6.3 2.84Z" />
    </Icon>
  );
}

/** Animate (to Image to video with the image as its start frame), as the cards offer it: not for viewers. */
export function AnimateAction({ record, view }: { record: TaskRecord; view: TaskView }) {
  const href = animateTarget(record, view);
  const viewer = useMyName().role === 'viewer';
  if (!href || viewer) return null;
  return (
    <Link href={href} className={iconActionClass} aria-label="Animate" title="Animate">
      <PlayIcon />
    </Link>
  );
}
