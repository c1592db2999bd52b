import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { BROTLI_MIN_BYTES, BROTLI_QUALITY, brotliAssets } from '../server/static/prod-brotli';
import {
  BROTLI,
  checkBudgets,
  gzipSize,
  measureInitialAssets,
  parseInitialAssets,
  servedSize,
} from './check-bundle-size.mjs';

const VITE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <!-- <script type="module" src="/assets/commented-out.js"></script> -->
    <script type="module" crossorigin src="/assets/index-n9qXIjD0.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor-AbC123.js">
    <link rel='modulepreload' href='/assets/vendor-AbC123.js'>
    <link rel="stylesheet" crossorigin href="/assets/index-DNJrXRp2.css">
    <link rel="preconnect" href="https://api.example.com">
    <link rel="stylesheet" href="https://cdn.example.com/font.css">
    <script src="/legacy-classic.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

describe('parseInitialAssets', () => {
  it('finds the entry script, modulepreload links and stylesheets of a Vite build, once each', () => {
    expect(parseInitialAssets(VITE_HTML)).toEqual({
      js: ['assets/index-n9qXIjD0.js', 'assets/vendor-AbC123.js'],
      css: ['assets/index-DNJrXRp2.css'],
    });
  });

  it('ignores comments, icons, preconnects, external URLs and classic scripts', () => {
    const { js, css } = parseInitialAssets(VITE_HTML);
    expect(js.join()).not.toMatch(/commented-out|legacy|favicon/);
    expect(css.join()).not.toMatch(/cdn\.example/);
  });

  it('accepts relative paths and strips query strings', () => {
    const html =
      '<script src="./assets/a.js?v=1" type="module"></script><link href="assets/b.css#x" rel="stylesheet"/>';
    expect(parseInitialAssets(html)).toEqual({ js: ['assets/a.js'], css: ['assets/b.css'] });
  });
});

describe('measureInitialAssets and checkBudgets', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function fakeDist(jsContent: string) {
    dir = mkdtempSync(join(tmpdir(), 'bundle-size-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'index-1.js'), jsContent);
    writeFileSync(join(dir, 'assets', 'vendor-1.js'), 'export const v = 1;');
    writeFileSync(join(dir, 'assets', 'index-1.css'), 'body{color:red}');
    writeFileSync(join(dir, 'assets', 'lazy-1.js'), 'x'.repeat(500_000));
    writeFileSync(
      join(dir, 'index.html'),
      '<script type="module" src="/assets/index-1.js"></script><link rel="modulepreload" href="/assets/vendor-1.js"><link rel="stylesheet" href="/assets/index-1.css">',
    );
    return dir;
  }

  it('sums the served and the gzip sizes of the initial files only', () => {
    const entry = 'export const message = "hello";\n'.repeat(100);
    const measured = measureInitialAssets(fakeDist(entry));
    expect(measured.js.map((file) => file.path)).toEqual(['assets/index-1.js', 'assets/vendor-1.js']);
    // The entry is large enough to be sent as brotli; the tiny files go as they are.
    expect(measured.jsServed).toBe(servedSize(Buffer.from(entry)) + 'export const v = 1;'.length);
    expect(measured.jsServed).toBeLessThan(entry.length / 10);
    expect(measured.jsGzip).toBe(gzipSize(Buffer.from(entry)) + gzipSize(Buffer.from('export const v = 1;')));
    expect(measured.cssServed).toBe('body{color:red}'.length);
    expect(measured.cssGzip).toBe(gzipSize(Buffer.from('body{color:red}')));
    expect(checkBudgets(measured).ok).toBe(true);
  });

  it('counts the bytes the production server sends for each file', async () => {
    const root = fakeDist('export const message = "hello";\n'.repeat(100));
    expect(BROTLI).toEqual({ quality: BROTLI_QUALITY, minBytes: BROTLI_MIN_BYTES });
    const app = new Hono().use('/assets/*', brotliAssets(root, 'no-store'));
    app.get('*', (c) => c.text('sent as is'));
    const measured = measureInitialAssets(root);
    const large = measured.js.find((file) => file.path === 'assets/index-1.js');
    const sent = await app.request('/assets/index-1.js', { headers: { 'accept-encoding': 'br' } });
    expect(sent.headers.get('content-encoding')).toBe('br');
    expect(Number(sent.headers.get('content-length'))).toBe(large?.served);
    expect((await sent.arrayBuffer()).byteLength).toBe(large?.served);
    // Under the threshold the server leaves the file to the plain static handler.
    const small = await app.request('/assets/vendor-1.js', { headers: { 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
  });

  it('holds the budget to the brotli figure, not gzip', () => {
    const file = (served: number, gzip: number) => ({ path: 'assets/a.js', bytes: 300_000, served, gzip });
    const measured = (served: number, gzip: number) => ({
      js: [file(served, gzip)],
      css: [],
      jsServed: served,
      cssServed: 0,
      jsGzip: gzip,
      cssGzip: 0,
    });
    const report = checkBudgets(measured(95_000, 108_000));
    expect(report.ok).toBe(true);
    expect(report.lines[0]).toMatch(/95\.0 KB brotli .*gzip 108\.0 KB/);
    expect(checkBudgets(measured(100_001, 108_000)).ok).toBe(false);
  });

  it('fails when the initial JS is over budget and says which figure', () => {
    const random = Array.from({ length: 40_000 }, (_, i) =>
      ((i * 2654435761) % 4294967296).toString(36),
    ).join('');
    const { ok, lines } = checkBudgets(measureInitialAssets(fakeDist(random)));
    expect(ok).toBe(false);
    expect(lines.find((line) => line.startsWith('OVER'))).toMatch(/Initial JS/);
  });

  it('fails when no module script is found', () => {
    expect(checkBudgets({ js: [], css: [], jsServed: 0, cssServed: 0, jsGzip: 0, cssGzip: 0 }).ok).toBe(
      false,
    );
  });
});
