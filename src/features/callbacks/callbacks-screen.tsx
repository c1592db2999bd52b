// For support staff: every callback the service sent, newest first, and a way to add one by hand.
import { CallbackLog } from './callback-log';
import { InboxAddressCard } from './inbox-address-card';
import { useInboxInfo } from './inbox-api';
import { PasteCallbackForm } from './paste-callback-form';
import { QueryProvider } from '@/api/query-client';

/** With its own provider of the shared query client: TanStack Query loads with this screen, not the shell. */
export function CallbacksScreen() {
  return (
    <QueryProvider>
      <CallbacksScreenContent />
    </QueryProvider>
  );
}

function CallbacksScreenContent() {
  const { data, isPending, isError } = useInboxInfo();
  const inboxPath = data?.callbackInboxPath;
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Callbacks</h1>
        <p className="mt-1 max-w-2xl text-sm text-zinc-600 dark:text-zinc-400">
          The completion callbacks the service sent to this console. Each one is stored on the server before
          it is acknowledged and updates its task in the gallery as soon as it arrives.
        </p>
      </header>
      {isPending && (
        <p role="status" className="py-10 text-center text-sm text-zinc-500 dark:text-zinc-400">
          Loading…
        </p>
      )}
      {(isError || (data && !inboxPath)) && (
        <p
          role="alert"
          className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100"
        >
          The console server did not say where its callback inbox is. Reload the page; if this persists, the
          server is older than this page and needs a restart.
        </p>
      )}
      {data && inboxPath && (
        // Phones read top to bottom: where callbacks go, what arrived, then the manual box. Desktops
        // keep the log in the wide column with the two smaller cards beside it.
        <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:grid-rows-[auto_1fr]">
          <div className="min-w-0 lg:col-start-2 lg:row-start-1">
            <InboxAddressCard info={data} />
          </div>
          <div className="min-w-0 lg:col-start-1 lg:row-span-2 lg:row-start-1">
            <CallbackLog inboxPath={inboxPath} />
          </div>
          <div className="min-w-0 self-start lg:col-start-2 lg:row-start-2">
            <PasteCallbackForm inboxPath={inboxPath} />
          </div>
        </div>
      )}
    </div>
  );
}
