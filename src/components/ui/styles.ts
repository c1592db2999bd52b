// Shared class strings so every text control looks and behaves the same (focus ring, invalid state,
// dark mode) without a component per element type.
export const inputClass =
  'block w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 ' +
  'focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none ' +
  'aria-invalid:border-red-500 aria-invalid:focus:ring-red-500/30 ' +
  'dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-500 dark:aria-invalid:border-red-400';

export const cardClass =
  'rounded-xl border border-zinc-200 bg-white shadow-xs dark:border-zinc-800 dark:bg-zinc-900';

export const hintClass = 'text-xs text-zinc-600 dark:text-zinc-400';
export const errorTextClass = 'text-sm font-medium text-red-700 dark:text-red-400';
