// For support staff: every callback the service sent, newest first, and a way to add one by hand.
import { CallbackLog } from './callback-log';
import { InboxAddressCard } from './inbox-address-card';
import { useInboxInfo } from './inbox/inbox-api';
import { PasteCallbackForm } from './paste-callback-form';
import { QueryProvider } from '@/api/query/query-client';
import { CONSOLE_CALLBACKS_PATH } from '@/api/core/rules';

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
  // The inbox's log and stream without its secret (the secret never reaches a browser).
  const inboxPath = CONSOLE_CALLBACKS_PATH;
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Callbacks</h1>
        <p className="mt-1 max-w-2xl text-sm text-zinc-600 dark:text-zinc-400">
          The completion callbacks the service sent to this console. Each one is stored on the server before
          it is acknowledged; the console then asks the service about its task at once, and the gallery shows
          what the service answers.
        </p>
      </header>
      {isPending && (
        <p role="status" className="py-10 text-center text-sm text-zinc-500 dark:text-zinc-400">
          Loading…
        </p>
      )}
      {isError && (
        <p
          role="alert"
          className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100"
        >
          The console server did not answer as this page expects. Reload the page; if this persists, the
          server is older than this page and needs a restart.
        </p>
      )}
      {data && (
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
