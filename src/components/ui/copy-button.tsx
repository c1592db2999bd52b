import { useEffect, useState } from 'react';
import { Button, type ButtonProps } from './core/button';

async function copyText(text: string) {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text);
  // Non-secure origins (a LAN address over http) have no Clipboard API.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy failed');
}

/**
 * Copies `text` (or what `text()` gives: a snippet whose code loads when asked); the outcome is
 * announced through a polite live region.
 */
export function CopyButton({
  text,
  label,
  ...rest
}: { text: string | (() => Promise<string>); label: string } & Omit<ButtonProps, 'onClick' | 'children'>) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <>
      <Button
        {...rest}
        onClick={() =>
          (typeof text === 'string' ? copyText(text) : text().then(copyText)).then(
            () => setState('copied'),
            () => setState('failed'),
          )
        }
        icon={
          <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
            {state === 'copied' ? (
              <path
                fillRule="evenodd"
                d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z"
                clipRule="evenodd"
              />
            ) : (
              <path d="M7 3.5A1.5 1.5 0 0 1 8.5 2h3.879a1.5 1.5 0 0 1 1.06.44l3.122 3.12A1.5 1.5 0 0 1 17 6.622V12.5a1.5 1.5 0 0 1-1.5 1.5h-1v-3.379a3 3 0 0 0-.879-2.121L10.5 5.379A3 3 0 0 0 8.379 4.5H7v-1Z M4.5 6A1.5 1.5 0 0 0 3 7.5v9A1.5 1.5 0 0 0 4.5 18h7a1.5 1.5 0 0 0 1.5-1.5v-5.879a1.5 1.5 0 0 0-.44-1.06L9.44 6.439A1.5 1.5 0 0 0 8.378 6H4.5Z" />
            )}
          </svg>
        }
      >
        {state === 'copied' ? 'Copied' : label}
      </Button>
      <span role="status" className="sr-only">
        {state === 'copied'
          ? 'Copied to the clipboard'
          : state === 'failed'
            ? 'Copy failed: select the text and copy it by hand'
            : ''}
      </span>
    </>
  );
}
