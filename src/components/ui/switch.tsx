import { useId, type Ref } from 'react';

interface SwitchProps {
  label: string;
  /** One line saying what turning it on does. */
  description: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  onBlur?: () => void;
  name?: string;
  /** The button itself: react-hook-form focuses the field with it. */
  ref?: Ref<HTMLButtonElement>;
}

/** An on/off setting: a `role="switch"` button named by its label, described by its one-liner. */
export function Switch({ label, description, checked, onChange, onBlur, name, ref }: SwitchProps) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4 py-3">
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium text-zinc-900 dark:text-zinc-100">
          {label}
        </label>
        <p id={`${id}-description`} className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          {description}
        </p>
      </div>
      <button
        ref={ref}
        id={id}
        name={name}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={`${id}-description`}
        onClick={() => onChange(!checked)}
        onBlur={onBlur}
        className={`relative mt-0.5 inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors ${
          checked ? 'bg-indigo-600 dark:bg-indigo-500' : 'bg-zinc-300 dark:bg-zinc-700'
        }`}
      >
        <span
          aria-hidden="true"
          className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${checked ? 'translate-x-5.5' : 'translate-x-0.5'}`}
        />
      </button>
    </div>
  );
}
