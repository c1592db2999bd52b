import { useId, useState, type Ref } from 'react';
import { Button } from '@/components/ui/core/button';
import { FieldGroup } from '@/components/ui/field';
import { inputClass } from '@/components/ui/styles';

interface LanguagePickerProps {
  value: string[];
  onChange: (value: string[]) => void;
  onBlur: () => void;
  /** Given to the first checkbox, so "focus the first invalid field" lands here. */
  inputRef: Ref<HTMLInputElement>;
  options: readonly string[];
  source: 'service' | 'builtin' | 'loading';
  error?: string;
}

/**
 * A group of checkbox chips plus a text box for languages that are not listed: the interface does
 * not say which languages the service supports, so any name may be sent.
 */
export function LanguagePicker({
  value,
  onChange,
  onBlur,
  inputRef,
  options,
  source,
  error,
}: LanguagePickerProps) {
  const id = useId();
  const [custom, setCustom] = useState('');
  const shown = [...options, ...value.filter((language) => !options.includes(language))];

  function toggle(language: string, checked: boolean) {
    onChange(checked ? [...value, language] : value.filter((item) => item !== language));
  }

  function addCustom() {
    const name = custom.trim().replace(/\s+/g, ' ');
    if (!name) return;
    const existing = shown.find((language) => language.toLowerCase() === name.toLowerCase()) ?? name;
    if (!value.includes(existing)) onChange([...value, existing]);
    setCustom('');
  }

  const hint =
    source === 'service'
      ? 'One task per language. This list comes from the service; add another by name if you need it.'
      : source === 'builtin'
        ? 'One task per language. This backend does not list its languages, so these are common ones; add any other by name.'
        : 'One task per language. Loading the languages the service offers…';

  return (
    <FieldGroup
      legend="Target languages"
      error={error}
      errorId={`${id}-error`}
      hint={hint}
      hintId={`${id}-hint`}
      aside={
        <span className="text-xs text-zinc-500 dark:text-zinc-400" aria-live="polite">
          {value.length} selected
        </span>
      }
    >
      <div className="flex flex-wrap gap-2">
        {shown.map((language, index) => (
          <label
            key={language}
            className="inline-flex cursor-pointer items-center gap-1.5 rounded-full border border-zinc-300 bg-white px-3 py-1.5 text-sm text-zinc-800 transition-colors select-none hover:border-zinc-400 has-checked:border-indigo-600 has-checked:bg-indigo-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:has-checked:border-indigo-400 dark:has-checked:bg-indigo-500 dark:has-checked:text-white"
          >
            <input
              ref={index === 0 ? inputRef : undefined}
              type="checkbox"
              className="peer sr-only"
              checked={value.includes(language)}
              onChange={(event) => toggle(language, event.target.checked)}
              onBlur={onBlur}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              fill="currentColor"
              className="hidden size-3.5 peer-checked:block"
            >
              <path
                fillRule="evenodd"
                d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z"
                clipRule="evenodd"
              />
            </svg>
            {language}
          </label>
        ))}
      </div>
      <div className="mt-3 flex max-w-sm gap-2">
        <label htmlFor={`${id}-custom`} className="sr-only">
          Another language
        </label>
        <input
          id={`${id}-custom`}
          value={custom}
          onChange={(event) => setCustom(event.target.value)}
          onKeyDown={(event) => {
            // Plain Enter adds the language; Ctrl/Cmd+Enter still reaches the form and submits.
            if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) {
              event.preventDefault();
              addCustom();
            }
          }}
          placeholder="Another language, e.g. Dutch"
          autoComplete="off"
          className={inputClass}
        />
        <Button size="sm" onClick={addCustom} disabled={!custom.trim()} className="shrink-0">
          Add
        </Button>
      </div>
    </FieldGroup>
  );
}
