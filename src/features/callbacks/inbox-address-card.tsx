// Where the service's callbacks go, in words: the address without its secret, which stays on the
// server (CALLBACK_SECRET or DATA_DIR/callback-secret). Tasks created here get the full address
// from the server itself; only an operator needs to read the secret, on the server.
import { cardClass } from '@/components/ui/styles';
import { useInboxConnection } from './inbox/connection-state';
import type { InboxInfo } from './inbox/inbox-api';
import type { InboxConnection } from './inbox/inbox-subscription';

const CONNECTION: Record<InboxConnection, { label: string; dot: string }> = {
  live: { label: 'Live', dot: 'bg-emerald-500' },
  connecting: { label: 'Connecting…', dot: 'bg-amber-500' },
  reconnecting: { label: 'Reconnecting…', dot: 'bg-amber-500 animate-pulse motion-reduce:animate-none' },
  off: { label: 'Not connected', dot: 'bg-zinc-400' },
};

export function InboxAddressCard({ info }: { info: InboxInfo }) {
  const connection = CONNECTION[useInboxConnection()];
  return (
    <section aria-labelledby="inbox-address-title" className={`${cardClass} p-4 sm:p-5`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="inbox-address-title" className="text-base font-semibold">
          Callback address
        </h2>
        <span className="inline-flex items-center gap-1.5 rounded-full border border-zinc-200 px-2.5 py-0.5 text-xs font-medium text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
          <span aria-hidden="true" className={`size-2 rounded-full ${connection.dot}`} />
          <span className="sr-only">Live updates: </span>
          {connection.label}
        </span>
      </div>
      {info.callbackAddress ? (
        <>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            {info.backend === 'emulator'
              ? 'The built-in emulator posts its callbacks here.'
              : 'Tasks created here with this console’s inbox as callback URL report here.'}{' '}
            The console fills in the full address itself; its secret part stays on the server
            (CALLBACK_SECRET, or the file callback-secret in its data folder). A callback is only a hint: the
            console asks the service about the task before showing any result.
          </p>
          <code className="mt-3 block rounded-lg bg-zinc-50 px-3 py-2 font-mono text-xs break-all text-zinc-800 ring-1 ring-zinc-200 ring-inset dark:bg-zinc-950 dark:text-zinc-200 dark:ring-zinc-800">
            {info.callbackAddress}
          </code>
        </>
      ) : (
        <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:bg-amber-950/60 dark:text-amber-100">
          The service cannot reach this console yet. Set <code className="font-mono">PUBLIC_BASE_URL</code> on
          the server to the console's public address (for example{' '}
          <code className="font-mono">https://console.example.com</code>) and restart it: callbacks then go to{' '}
          <code className="font-mono break-all">PUBLIC_BASE_URL/callbacks/…</code>.
        </p>
      )}
    </section>
  );
}
