import { Link, useLocation } from 'wouter';
import { useConsoleInfo } from '@/api/console-info';
import { isPersonRole } from '@/api/roles';
import { PEOPLE_ITEM, SUPPORT_ITEMS, prefetchScreen, type NavItem } from './routes';

function isActive(href: string, location: string) {
  return href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
}

/**
 * Whether this person sees Support in the header: viewers (support staff who read) and admins, and
 * anyone on a console that knows no roles. Creators do not: their navigation is what they make.
 */
export function useShowsSupport(): boolean {
  const { data } = useConsoleInfo();
  if (!data) return false;
  const role = data.user?.role;
  return !isPersonRole(role) || role !== 'creator';
}

/** Support's links: Callbacks, and People for an admin (the server refuses it to everyone else). */
export function useSupportItems(): readonly NavItem[] {
  const { data } = useConsoleInfo();
  return data?.user?.role === 'admin' ? [...SUPPORT_ITEMS, PEOPLE_ITEM] : SUPPORT_ITEMS;
}

const LINK_COLOURS = {
  active: 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-200',
  idle: 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
};

/** A list of navigation links, the current one marked; `stacked` for the phone menu. */
export function NavLinks({
  label,
  items,
  stacked = false,
  className = '',
  onNavigate,
}: {
  label: string;
  items: readonly NavItem[];
  stacked?: boolean;
  className?: string;
  onNavigate?: () => void;
}) {
  const [location] = useLocation();
  const shape = stacked
    ? 'block rounded-lg px-3 py-2.5 text-base'
    : 'block rounded-lg px-2 py-1.5 text-sm whitespace-nowrap';
  return (
    <nav aria-label={label} className={className}>
      <ul className={stacked ? 'space-y-0.5' : 'flex gap-0.5'}>
        {items.map((item) => {
          const active = isActive(item.href, location);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? 'page' : undefined}
                onClick={onNavigate}
                onPointerEnter={() => prefetchScreen(item.href)}
                onFocus={() => prefetchScreen(item.href)}
                className={`${shape} font-medium transition-colors ${active ? LINK_COLOURS.active : LINK_COLOURS.idle}`}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
