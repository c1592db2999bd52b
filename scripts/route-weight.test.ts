import { describe, expect, it } from 'vitest';
import { NAV_ITEMS } from '@/app/routes';
import { budgetsFromEnv } from './check-route-weight';
import {
  KB,
  MEASURED_ROUTES,
  assetType,
  checkRouteBudgets,
  gzipSize,
  servedSize,
  summarise,
} from './route-weight';

/** A file as the production server sends it: brotli, and its gzip size ~15 % above. */
const file = (url: string, type: 'js' | 'css', served: number, gzip = Math.round(served * 1.15)) => ({
  url,
  type,
  encoding: 'br',
  served,
  gzip,
});

describe('route weight', () => {
  it('measures every screen of the navigation', () => {
    for (const item of NAV_ITEMS) expect(MEASURED_ROUTES).toContain(item.href);
  });

  it('tells scripts and stylesheets from other requests', () => {
    expect(assetType('http://h/assets/a-1.js', 'script')).toBe('js');
    expect(assetType('http://h/assets/a-1.js?v=2', 'other')).toBe('js');
    expect(assetType('http://h/assets/a.css', 'stylesheet')).toBe('css');
    expect(assetType('http://h/v1/image_generate/x', 'fetch')).toBeUndefined();
    expect(assetType('http://h/emulator/media/x.png', 'image')).toBeUndefined();
  });

  it('sums served and gzip sizes per type and counts a file fetched twice once', () => {
    const weight = summarise('/', [
      file('http://h/a.js', 'js', 1000, 1200),
      file('http://h/a.js', 'js', 1000, 1200),
      file('http://h/b.js', 'js', 500, 600),
      file('http://h/c.css', 'css', 300, 350),
    ]);
    expect(weight.jsServed).toBe(1500);
    expect(weight.jsGzip).toBe(1800);
    expect(weight.cssServed).toBe(300);
    expect(weight.cssGzip).toBe(350);
    expect(weight.files).toHaveLength(3);
  });

  it('counts the bytes sent: the Content-Length, else what the browser counted on the wire', () => {
    expect(servedSize({ 'content-encoding': 'br', 'content-length': '44859' }, 44859, 157048)).toBe(44859);
    expect(servedSize({ 'content-length': '726' }, 726, 726)).toBe(726);
    // A streamed (chunked) answer has no Content-Length.
    expect(servedSize({ 'content-encoding': 'gzip' }, 749, 1448)).toBe(749);
    expect(servedSize({}, -1, 401)).toBe(401);
  });

  it('holds each route to its brotli size, printing gzip beside it', () => {
    const route = summarise('/', [file('http://h/a.js', 'js', 96 * KB, 108 * KB)]);
    const report = checkRouteBudgets([route]);
    expect(report.ok).toBe(true);
    expect(report.lines.find((line) => line.startsWith('ok'))).toMatch(/ 96\.0 KB +108\.0 KB /);
    expect(report.largestJs).toBe(96 * KB);
  });

  it('names a sizeable file that was not sent as brotli, and counts it as sent', () => {
    const gzipped = { ...file('http://h/assets/b.js', 'js', 20 * KB), encoding: 'gzip' };
    const tiny = { ...file('http://h/assets/t.js', 'js', 200), encoding: 'identity' };
    const report = checkRouteBudgets([summarise('/', [gzipped, tiny])]);
    expect(report.largestJs).toBe(20 * KB + 200);
    expect(report.lines.at(-1)).toBe('not served as brotli: /assets/b.js (gzip)');
  });

  it('fails when the largest route is over a budget, and names it', () => {
    const light = summarise('/tasks', [file('http://h/a.js', 'js', 90 * KB)]);
    const heavy = summarise('/', [
      file('http://h/a.js', 'js', 90 * KB),
      file('http://h/f.js', 'js', 11 * KB),
    ]);
    expect(checkRouteBudgets([light]).ok).toBe(true);
    const report = checkRouteBudgets([light, heavy]);
    expect(report.ok).toBe(false);
    expect(report.largestJs).toBe(101 * KB);
    expect(report.lines.find((line) => line.startsWith('OVER'))).toMatch(/^OVER \/ /);
  });

  it('lets a route of exactly 100 KB through and fails it one byte past, whichever route it is', () => {
    for (const route of ['/', '/tasks', '/image-to-video']) {
      const at = summarise(route, [file('http://h/a.js', 'js', 100 * KB)]);
      const past = summarise(route, [file('http://h/a.js', 'js', 100 * KB + 1)]);
      expect(checkRouteBudgets([at]).ok, route).toBe(true);
      expect(checkRouteBudgets([past]).ok, route).toBe(false);
    }
  });

  it('holds CSS to its own budget', () => {
    const styled = summarise('/', [file('http://h/a.js', 'js', KB), file('http://h/a.css', 'css', 13 * KB)]);
    expect(checkRouteBudgets([styled]).ok).toBe(false);
  });

  it('never passes on no measurement at all', () => {
    expect(checkRouteBudgets([]).ok).toBe(false);
  });

  it('reads budget overrides in KB and ignores nonsense', () => {
    expect(budgetsFromEnv({ ROUTE_JS_BUDGET_KB: '80' }).js).toBe(80 * KB);
    expect(budgetsFromEnv({ ROUTE_JS_BUDGET_KB: 'lots' }).js).toBe(100 * KB);
    expect(budgetsFromEnv({ ROUTE_CSS_BUDGET_KB: '-1' }).css).toBe(12 * KB);
  });

  it('gzips like the browser transfer would (smaller than the raw text for code)', () => {
    const code = new TextEncoder().encode('export const a = 1;\n'.repeat(200));
    expect(gzipSize(code)).toBeLessThan(code.length / 10);
  });
});
