import { useConsoleInfo } from '@/api/console-info';

/** Shown only when the production server requires sign-in (APP_PASSWORD). A plain form post, so it
 * works like the sign-in page itself and the server clears the HttpOnly cookie. */
export function SignOutButton() {
  const { data } = useConsoleInfo();
  if (!data?.auth) return null;
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
