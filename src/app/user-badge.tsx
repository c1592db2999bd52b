import { useConsoleInfo } from '@/api/console-info';
import { isRole, ROLE_LABELS, ROLE_SUMMARIES } from '@/api/roles';

/** Who is signed in and their role, in the header on every screen. */
export function UserBadge() {
  const { data } = useConsoleInfo();
  const user = data?.user;
  if (!user || !isRole(user.role)) return null;
  return (
    <p
      className="flex max-w-48 items-center gap-1.5 truncate text-xs text-zinc-700 dark:text-zinc-300"
      title={`${user.name}: ${ROLE_LABELS[user.role]}, ${ROLE_SUMMARIES[user.role]}`}
    >
      <span className="sr-only">Signed in as </span>
      <span className="truncate font-medium">{user.name}</span>
      <span className="sr-only">, role: </span>
      <span className="rounded-full bg-zinc-100 px-2 py-0.5 font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200">
        {ROLE_LABELS[user.role]}
      </span>
    </p>
  );
}

/** The signed-in person's role, undefined until the console's config has loaded. */
export function useRole() {
  const { data } = useConsoleInfo();
  const role = data?.user?.role;
  return isRole(role) ? role : undefined;
}
