import { Link } from 'wouter';
import { useConsoleInfo } from '@/api/console-info';
import { isPersonRole, ROLE_LABELS, ROLE_SUMMARIES } from '@/api/roles';

/**
 * Who is signed in and their role, in the header on every screen; a link to People for admins, to
 * their own API tokens for everyone else. Its
 * box has a fixed size from the first render, so the header does not move when the config arrives.
 */
export function UserBadge() {
  const { data } = useConsoleInfo();
  const user = data?.user;
  const box = 'flex h-7 w-24 items-center justify-end gap-1.5 text-xs sm:w-44 lg:w-28 2xl:w-44';
  if (!user || !isPersonRole(user.role)) return <span className={box} aria-hidden="true" />;
  const content = (
    <>
      <span className="sr-only">Signed in as </span>
      <span className="min-w-0 truncate font-medium">{user.name}</span>
      <span className="sr-only">, role: </span>
      {/* The chip shows on wide screens only: the header's one row holds the navigation first. */}
      <span className="sr-only 2xl:not-sr-only 2xl:shrink-0 2xl:rounded-full 2xl:bg-zinc-100 2xl:px-2 2xl:py-0.5 2xl:font-medium 2xl:text-zinc-700 2xl:dark:bg-zinc-800 2xl:dark:text-zinc-200">
        {ROLE_LABELS[user.role]}
      </span>
    </>
  );
  const admin = user.role === 'admin';
  return (
    <Link
      href={admin ? '/people' : '/people#api-tokens'}
      title={`${user.name}: ${ROLE_LABELS[user.role]}, ${ROLE_SUMMARIES[user.role]}. ${admin ? 'Manage people' : 'Your API tokens'}`}
      className={`${box} rounded-lg text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800`}
    >
      {content}
      <span className="sr-only">{admin ? ' (people and roles)' : ' (your API tokens)'}</span>
    </Link>
  );
}

/** Who is signed in, in the phone's menu: the name, the role and what it may do; People (admins) or their API tokens. */
export function AccountSummary({ onNavigate }: { onNavigate?: () => void }) {
  const { data } = useConsoleInfo();
  const user = data?.user;
  if (!user || !isPersonRole(user.role)) return null;
  return (
    <div className="min-w-0 text-sm">
      <p className="text-zinc-700 dark:text-zinc-300">
        Signed in as <span className="font-semibold text-zinc-900 dark:text-zinc-100">{user.name}</span>{' '}
        <span className="ml-1 rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200">
          {ROLE_LABELS[user.role]}
        </span>
      </p>
      <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
        {ROLE_LABELS[user.role]}: {ROLE_SUMMARIES[user.role]}
      </p>
      <Link
        href={user.role === 'admin' ? '/people' : '/people#api-tokens'}
        onClick={onNavigate}
        className="mt-1 inline-block text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
      >
        {user.role === 'admin' ? 'People and roles' : 'Your API tokens'}
      </Link>
    </div>
  );
}
