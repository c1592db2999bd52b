import { useEffect, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useConsoleInfo } from '@/api/console-info';
import { BackendIndicator, MissingTokenBanner } from './backend-indicator';
import { HeaderMenu } from './header-menu';
import { NavLinks, useShowsSupport, useSupportItems } from './nav-links';
import { NAV_ITEMS } from './routes';
import { KeyboardShortcuts } from './shortcuts-launcher';
import { SignOutButton } from './sign-out-button';
import { UserBadge } from './user-badge';
import { ThemeToggle } from './theme-toggle';

const DEMO_OPENED_KEY = 'media-console:demo-opened';

/**
 * `npm run demo` lists its seeded tasks in /__console/config; the import code loads only then. A demo
 * opens on the gallery: the first visit of `/` in a tab goes to Tasks, later visits stay on the form.
 */
function useDemoImport() {
  const { data: info } = useConsoleInfo();
  const [location, navigate] = useLocation();
  const demo = Boolean(info?.demo);
  useEffect(() => {
    if (!demo) return;
    let opened: string | null = 'unknown';
    try {
      opened = sessionStorage.getItem(DEMO_OPENED_KEY);
      sessionStorage.setItem(DEMO_OPENED_KEY, '1');
    } catch {
      // Storage blocked: no redirect, the form is a fine first screen too.
    }
    if (opened === null && location === '/') navigate('/tasks', { replace: true });
    // Only the first location this tab showed counts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [demo]);
  useEffect(() => {
    if (!info?.demo || !info.demoRun || !info.demoTasks) return;
    const { demoRun, demoTasks } = info;
    import('./demo-import')
      .then(({ importDemoTasks }) => importDemoTasks(demoRun, demoTasks))
      .catch((error: unknown) => console.warn('Demo tasks not imported', error));
  }, [info]);
}

export function Layout({ children }: { children: ReactNode }) {
  useDemoImport();
  const showsSupport = useShowsSupport();
  const supportItems = useSupportItems();
  // People is in Support's place for admins, and behind the user badge (the server refuses everyone else).
  // From the `lg` width the header is the navigation and the tools in one row; below it one line of
  // at most 64 px (name, theme, Menu) and the rest in the menu (header-menu.tsx).
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-sm dark:focus:bg-zinc-900"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-20 border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/90">
        <div className="relative mx-auto flex max-w-6xl items-center gap-x-3 gap-y-2 px-4 py-3 lg:flex-wrap">
          <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
            <img src="/favicon.svg" alt="" width={28} height={28} className="size-7" />
            <span>Media Console</span>
          </Link>
          <NavLinks label="Main" items={NAV_ITEMS} className="-mx-1 hidden lg:block" />
          <div className="ml-auto flex items-center gap-2">
            {showsSupport && <NavLinks label="Support" items={supportItems} className="hidden lg:block" />}
            <span className="hidden lg:contents">
              <BackendIndicator compact />
            </span>
            <KeyboardShortcuts buttonClassName="hidden lg:inline-flex" />
            <ThemeToggle />
            <span className="hidden lg:contents">
              <UserBadge />
              <SignOutButton />
            </span>
            <HeaderMenu />
          </div>
        </div>
      </header>
      <MissingTokenBanner />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:py-8">
        {children}
      </main>
    </div>
  );
}
