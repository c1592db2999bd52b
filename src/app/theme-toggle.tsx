import { useState } from 'react';
import { saveTheme, storedTheme, type Theme } from './theme';

const NEXT: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<Theme, string> = { system: 'System theme', light: 'Light theme', dark: 'Dark theme' };
const ICON: Record<Theme, string> = { system: '◐', light: '☀', dark: '☾' };

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  return (
    <button
      type="button"
      onClick={() => {
        const next = NEXT[theme];
        saveTheme(next);
        setTheme(next);
      }}
      className="inline-flex size-8 items-center justify-center rounded-lg border border-zinc-200 text-base text-zinc-700 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800"
      aria-label={`${LABEL[theme]} (change theme)`}
      title={LABEL[theme]}
    >
      <span aria-hidden="true">{ICON[theme]}</span>
    </button>
  );
}
