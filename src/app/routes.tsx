import { lazy, Suspense } from 'react';
import { Link, Route, Switch } from 'wouter';

// Every screen loads when first visited. On a first visit the production server names the route's
// files in the page it serves (server/static/route-preloads.ts), so they download alongside the
// entry; later, a navigation link fetches its screen as the pointer or focus reaches it
// (prefetchScreen), since the build does not preload a lazy chunk's own imports.
const loadImageGenerate = () => import('@/features/image-generate/image-generate-screen');
const loadVideoTranslate = () => import('@/features/video-translate/video-translate-screen');
const loadImageToVideo = () => import('@/features/image-to-video/image-to-video-screen');
const loadTasks = () => import('@/features/tasks/list/tasks-screen');
const loadInsights = () => import('@/features/insights/insights-screen');
const loadBoards = () => import('@/features/tasks/boards/boards-screen');
const loadCallbacks = () => import('@/features/callbacks/callbacks-screen');
const loadPeople = () => import('@/features/admin/people-screen');

const ImageGenerateScreen = lazy(() => loadImageGenerate().then((m) => ({ default: m.ImageGenerateScreen })));
const VideoTranslateScreen = lazy(() =>
  loadVideoTranslate().then((m) => ({ default: m.VideoTranslateScreen })),
);
const ImageToVideoScreen = lazy(() => loadImageToVideo().then((m) => ({ default: m.ImageToVideoScreen })));
const TasksScreen = lazy(() => loadTasks().then((m) => ({ default: m.TasksScreen })));
const TaskDetailScreen = lazy(() =>
  import('@/features/tasks/detail/task-detail-screen').then((m) => ({ default: m.TaskDetailScreen })),
);
const InsightsScreen = lazy(() => loadInsights().then((m) => ({ default: m.InsightsScreen })));
const RequestScreen = lazy(() =>
  import('@/features/tasks/requests/request-screen').then((m) => ({ default: m.RequestScreen })),
);
// Boards and Compare: each a chunk of its own, loaded when first visited.
const BoardsScreen = lazy(() => loadBoards().then((m) => ({ default: m.BoardsScreen })));
const BoardScreen = lazy(() =>
  import('@/features/tasks/boards/board-screen').then((m) => ({ default: m.BoardScreen })),
);
const CompareScreen = lazy(() =>
  import('@/features/tasks/boards/compare-screen').then((m) => ({ default: m.CompareScreen })),
);
const CallbacksScreen = lazy(() => loadCallbacks().then((m) => ({ default: m.CallbacksScreen })));
const PeopleScreen = lazy(() => loadPeople().then((m) => ({ default: m.PeopleScreen })));

const SCREEN_OF_LINK: Record<string, () => Promise<unknown>> = {
  '/': loadImageGenerate,
  '/translate': loadVideoTranslate,
  '/image-to-video': loadImageToVideo,
  '/tasks': loadTasks,
  '/insights': loadInsights,
  '/boards': loadBoards,
  '/callbacks': loadCallbacks,
  '/people': loadPeople,
};

/** Starts fetching a navigation link's screen; a failure waits for the visit, which says so. */
export function prefetchScreen(href: string): void {
  SCREEN_OF_LINK[href]?.().catch(() => undefined);
}

/** The creators' navigation: what they make and where it lands. */
export const NAV_ITEMS = [
  { href: '/', label: 'Create image' },
  { href: '/translate', label: 'Translate video' },
  { href: '/image-to-video', label: 'Image to video' },
  { href: '/tasks', label: 'Tasks' },
  { href: '/boards', label: 'Boards' },
  { href: '/insights', label: 'Insights' },
] as const;

/**
 * Support's place, apart from the creators' navigation: what the service sent back. Shown to the
 * roles that look after the console (viewers are support staff who read, admins) and when the
 * console knows no roles; a creator reaches it by its address or `g c`.
 */
export const SUPPORT_ITEMS = [{ href: '/callbacks', label: 'Callbacks' }] as const;

/** People and roles, limits, storage, webhooks: in Support's place for admins (nav-links.tsx). */
export const PEOPLE_ITEM = { href: '/people', label: 'People' } as const;

export interface NavItem {
  href: string;
  label: string;
}

function ScreenLoading() {
  return (
    <div role="status" className="py-16 text-center text-sm text-zinc-500 dark:text-zinc-400">
      Loading…
    </div>
  );
}

function NotFound() {
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">
        <Link
          href="/"
          className="inline-flex min-h-6 items-center text-indigo-700 underline dark:text-indigo-300"
        >
          Go to Create image
        </Link>
      </p>
    </div>
  );
}

export function AppRoutes() {
  return (
    <Suspense fallback={<ScreenLoading />}>
      <Switch>
        <Route path="/" component={ImageGenerateScreen} />
        <Route path="/translate" component={VideoTranslateScreen} />
        <Route path="/image-to-video" component={ImageToVideoScreen} />
        <Route path="/tasks" component={TasksScreen} />
        <Route path="/tasks/:taskId">
          {(params) => <TaskDetailScreen taskId={decodeURIComponent(params.taskId)} />}
        </Route>
        <Route path="/insights" component={InsightsScreen} />
        <Route path="/requests/:requestId/present">
          {(params) => <RequestScreen requestId={decodeURIComponent(params.requestId)} present />}
        </Route>
        <Route path="/requests/:requestId">
          {(params) => <RequestScreen requestId={decodeURIComponent(params.requestId)} />}
        </Route>
        <Route path="/boards" component={BoardsScreen} />
        <Route path="/boards/:boardId">
          {(params) => <BoardScreen boardId={decodeURIComponent(params.boardId)} />}
        </Route>
        <Route path="/compare" component={CompareScreen} />
        <Route path="/callbacks" component={CallbacksScreen} />
        <Route path="/people" component={PeopleScreen} />
        <Route component={NotFound} />
      </Switch>
    </Suspense>
  );
}
