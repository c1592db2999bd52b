import { useConsoleInfo } from '@/api/console-info';

/** `compact`: the dot alone below the `2xl` width (the words stay for screen readers and the title). */
export function BackendIndicator({ compact = false }: { compact?: boolean }) {
  const { data, isError } = useConsoleInfo();
  const label = isError
    ? 'Backend unknown'
    : !data
      ? 'Connecting…'
      : data.backend === 'emulator'
        ? 'Built-in emulator'
        : data.apiHost;
  const dot = isError ? 'bg-red-500' : data?.backend === 'remote' ? 'bg-emerald-500' : 'bg-amber-500';
  return (
    <span
      className="inline-flex min-h-6.5 items-center gap-1.5 rounded-full border border-zinc-200 bg-white px-2.5 py-1 text-xs font-medium text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300"
      title={`The service this console talks to: ${label}`}
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${dot}`} />
      <span className="sr-only">Backend: </span>
      <span className={compact ? 'sr-only 2xl:not-sr-only' : undefined}>{label}</span>
    </span>
  );
}

/** Shown instead of raw 401s when the server proxies to a real service without a token. */
export function MissingTokenBanner() {
  const { data } = useConsoleInfo();
  if (!data || data.backend !== 'remote' || data.tokenConfigured) return null;
  return (
    <div
      role="alert"
      className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <div className="mx-auto max-w-6xl">
        <strong>API_TOKEN is not set.</strong> This console forwards requests to {data.apiHost}, but the
        server has no access token, so the service would refuse every request. Set <code>API_TOKEN</code> in
        the server's environment and restart it.
      </div>
    </div>
  );
}
