import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NAV_ITEMS } from '@/app/routes';
import { ROUTE_PRELOADS_FILE, ROUTE_SCREENS, routeOf, routePagesOf, routePreloadsOf } from './route-preloads';

const ROOT = '/app';
const chunk = (fileName: string, imports: string[], moduleIds: string[] = [], isEntry = false) => ({
  type: 'chunk',
  fileName,
  imports,
  moduleIds,
  isEntry,
});

/** A bundle where every screen has a chunk of its own importing a shared chunk and the entry's. */
function bundle(overrides: Record<string, ReturnType<typeof chunk>> = {}) {
  const outputs: Record<string, ReturnType<typeof chunk> | { type: 'asset' }> = {
    'index.js': chunk('index.js', ['react.js'], [`${ROOT}/src/main.tsx`], true),
    'react.js': chunk('react.js', []),
    'shared.js': chunk('shared.js', ['react.js']),
    'deep.js': chunk('deep.js', []),
    'index.css': { type: 'asset' },
  };
  for (const [route, screen] of Object.entries(ROUTE_SCREENS)) {
    const name = `${route.replaceAll(/\W/g, '') || 'root'}.js`;
    outputs[name] = chunk(name, ['shared.js', 'index.js'], [`${ROOT}/${screen}`]);
  }
  return { ...outputs, ...overrides };
}

describe('routePreloadsOf', () => {
  it("lists each screen's chunk and what it imports, without what the entry already brings", () => {
    const preloads = routePreloadsOf(
      bundle({ 'shared.js': chunk('shared.js', ['react.js', 'deep.js']) }),
      ROOT,
    );
    expect(preloads['/translate']).toEqual(['translate.js', 'shared.js', 'deep.js']);
    expect(preloads['/tasks/:taskId']).toEqual(['taskstaskId.js', 'shared.js', 'deep.js']);
    expect(Object.keys(preloads).sort()).toEqual(Object.keys(ROUTE_SCREENS).sort());
  });

  it('finds a screen grouped into a chunk with other modules', () => {
    const grouped = chunk('group.js', [], [`${ROOT}/src/other.ts`, `${ROOT}/${ROUTE_SCREENS['/callbacks']}`]);
    expect(routePreloadsOf(bundle({ 'callbacks.js': grouped }), ROOT)['/callbacks']).toEqual(['group.js']);
  });

  it('fails the build when a screen is no longer in any chunk', () => {
    const moved = chunk('tasks.js', [], [`${ROOT}/src/elsewhere.tsx`]);
    expect(() => routePreloadsOf(bundle({ 'tasks.js': moved }), ROOT)).toThrow(/tasks-screen/);
  });
});

describe('routeOf', () => {
  const routes = Object.keys(ROUTE_SCREENS);
  it.each([
    ['/translate', '/translate'],
    ['/translate/', '/translate'],
    ['/tasks', '/tasks'],
    ['/tasks/abc-123', '/tasks/:taskId'],
    ['/tasks/task.with.dots', '/tasks/:taskId'],
    ['/', '/'],
    ['/tasks/a/b', undefined],
    ['/translated', undefined],
    ['/no-such-page', undefined],
  ])('%s → %s', (path, route) => {
    expect(routeOf(path, routes)).toBe(route);
  });
});

describe('routePagesOf', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const HTML =
    '<html><head><script type="module" src="/assets/index.js"></script></head><body></body></html>';

  it("names the route's files as modulepreload links in its page, and leaves other pages as built", () => {
    dir = mkdtempSync(join(tmpdir(), 'route-pages-'));
    writeFileSync(
      join(dir, ROUTE_PRELOADS_FILE),
      JSON.stringify({
        '/tasks': ['assets/tasks-1.js', 'assets/query-2.js'],
        '/tasks/:taskId': ['assets/t"x.js'],
      }),
    );
    const pageFor = routePagesOf(dir, HTML);
    const tasks = pageFor('/tasks');
    expect(tasks).toContain(
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/tasks-1.js">',
    );
    expect(tasks).toContain('href="/assets/query-2.js"');
    expect(tasks.indexOf('tasks-1.js')).toBeLessThan(tasks.indexOf('</head>'));
    expect(pageFor('/tasks/abc')).toContain('href="/assets/t&quot;x.js"');
    expect(pageFor('/')).toBe(HTML);
    expect(pageFor('/callbacks')).toBe(HTML);
  });

  it('serves index.html as built when the build has no list (an older build)', () => {
    dir = mkdtempSync(join(tmpdir(), 'route-pages-'));
    expect(routePagesOf(dir, HTML)('/tasks')).toBe(HTML);
  });
});

describe('ROUTE_SCREENS', () => {
  it('has every screen of the navigation', () => {
    for (const item of NAV_ITEMS) expect(Object.keys(ROUTE_SCREENS)).toContain(item.href);
  });

  it('names modules that exist', () => {
    for (const screen of Object.values(ROUTE_SCREENS)) expect(existsSync(screen), screen).toBe(true);
  });
});
