import { useConsoleInfo } from '@/api/console-info';

/** Shown only when the production server asks for a sign-in. A plain form post, so it
 * works like the sign-in page itself and the server clears the HttpOnly cookie. */
export function SignOutButton() {
  const { data } = useConsoleInfo();
  // The page itself says a sign-in is asked for (server/prod-app.ts), so the button is there from the
  // first render and the header does not move when the config arrives.
  const signIn = data?.auth ?? document.querySelector('meta[name="console-sign-in"]') !== null;
  if (!signIn) return null;
  return (
    <form method="post" action="/logout">
      <button
        type="submit"
        className="rounded-lg border border-zinc-200 px-2.5 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800"
      >
        Sign out
      </button>
    </form>
  );
}
