// Budget check for the first screen, run by CI after `npm run build`: the size at which `npm start`
// sends the JavaScript and CSS that dist/index.html makes the browser fetch before anything renders
// (the entry script, its modulepreload links and the stylesheets): brotli at the server's quality,
// and files too small for it as they are (server/static/prod-brotli.ts), with the gzip size beside it.
// Lazily loaded screens are not counted: they are not on the first route (scripts/check-route-weight.ts
// counts every route in a browser). Exits 1 when a figure is over its budget: a size is a bound,
// not a timing.
//
// Usage: node scripts/check-bundle-size.mjs [distDir]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** 1 KB = 1000 bytes, as Vite reports sizes (the stricter reading of the budget). */
export const KB = 1000;
export const BUDGETS = { js: 100 * KB, css: 12 * KB };

function attributes(tag) {
  const attrs = {};
  for (const match of tag.matchAll(/([a-zA-Z:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    const name = match[1];
    if (!name) continue;
    attrs[name.toLowerCase()] = match[2] ?? match[3] ?? match[4] ?? '';
  }
  return attrs;
}

/** Only files of this build count; absolute URLs (a CDN, analytics) would be a budget escape. */
function localPath(url) {
  if (!url || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(url)) return undefined;
  return url.replace(/^\.?\//, '').replace(/[?#].*$/, '');
}

/**
 * The initial assets named by an index.html, as paths relative to dist/: `js` (module entry
 * scripts and modulepreload links) and `css` (stylesheets). Duplicates are counted once.
 */
export function parseInitialAssets(html) {
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, '');
  const js = new Set();
  const css = new Set();
  for (const [tag] of withoutComments.matchAll(/<script\b[^>]*>/gi)) {
    const attrs = attributes(tag.slice('<script'.length, -1));
    const path = localPath(attrs.src);
    if (path && attrs.type === 'module') js.add(path);
  }
  for (const [tag] of withoutComments.matchAll(/<link\b[^>]*>/gi)) {
    const attrs = attributes(tag.slice('<link'.length, -1).replace(/\/$/, ''));
    const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
    const path = localPath(attrs.href);
    if (!path) continue;
    if (rel.includes('modulepreload')) js.add(path);
    else if (rel.includes('stylesheet')) css.add(path);
  }
  return { js: [...js], css: [...css] };
}

export function gzipSize(buffer) {
  return gzipSync(buffer).length;
}

/** As server/static/prod-brotli.ts compresses (BROTLI_QUALITY, BROTLI_MIN_BYTES; a test holds them equal). */
export const BROTLI = { quality: 11, minBytes: 256 };

/** The bytes the production server sends for a file to a browser that accepts brotli. */
export function servedSize(buffer) {
  if (buffer.length < BROTLI.minBytes) return buffer.length;
  const compressed = brotliCompressSync(buffer, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI.quality,
      [constants.BROTLI_PARAM_SIZE_HINT]: buffer.length,
    },
  }).length;
  // The server sends a file brotli cannot make smaller as it is.
  return Math.min(compressed, buffer.length);
}

/** Reads dist/index.html and measures every initial asset. */
export function measureInitialAssets(distDir = 'dist') {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const assets = parseInitialAssets(html);
  const measure = (paths) =>
    paths.map((path) => {
      const content = readFileSync(join(distDir, path));
      return { path, bytes: content.length, served: servedSize(content), gzip: gzipSize(content) };
    });
  const js = measure(assets.js);
  const css = measure(assets.css);
  const sum = (files, size) => files.reduce((total, file) => total + file[size], 0);
  return {
    js,
    css,
    jsServed: sum(js, 'served'),
    cssServed: sum(css, 'served'),
    jsGzip: sum(js, 'gzip'),
    cssGzip: sum(css, 'gzip'),
  };
}

export function formatKb(bytes) {
  return `${(bytes / KB).toFixed(1)} KB`;
}

/** The report lines and whether every figure (brotli as served) is within its budget. */
export function checkBudgets(measured, budgets = BUDGETS) {
  const rows = [
    {
      label: 'Initial JS',
      served: measured.jsServed,
      gzip: measured.jsGzip,
      budget: budgets.js,
      files: measured.js,
    },
    {
      label: 'Initial CSS',
      served: measured.cssServed,
      gzip: measured.cssGzip,
      budget: budgets.css,
      files: measured.css,
    },
  ];
  const lines = [];
  let ok = true;
  for (const row of rows) {
    const within = row.served <= row.budget;
    ok &&= within;
    lines.push(
      `${within ? 'ok  ' : 'OVER'} ${row.label.padEnd(12)} ${formatKb(row.served).padStart(9)} brotli   (gzip ${formatKb(row.gzip)})   target ≤ ${formatKb(row.budget)}`,
    );
    for (const file of row.files)
      lines.push(`       ${file.path} ${formatKb(file.served)} (gzip ${formatKb(file.gzip)})`);
  }
  if (measured.js.length === 0) {
    ok = false;
    lines.push('FAIL no module script found in index.html: is this a Vite build?');
  }
  return { ok, lines };
}

function main() {
  const distDir = resolve(process.argv[2] ?? 'dist');
  let measured;
  try {
    measured = measureInitialAssets(distDir);
  } catch (error) {
    console.error(
      `check-bundle-size: cannot read the build in ${distDir} (run \`npm run build\` first): ${error.message}`,
    );
    process.exit(1);
  }
  const { ok, lines } = checkBudgets(measured);
  console.log(`Bundle budget of the first screen, as the production server sends it (${distDir}):`);
  for (const line of lines) console.log(line);
  if (!ok) {
    console.error(
      'check-bundle-size: over budget. Lazy-load what is not on the first route, or trim dependencies.',
    );
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
