// The page a share link opens: plain HTML the server writes, with its own stylesheet and a small
// script (./page-assets.ts), so a visitor with no account loads nothing of the console's app and
// the sign-in keeps guarding everything else. It names what was shared, who made each result and
// when, and shows the results from the link's own media addresses; the script adds a large view
// and a full-screen presentation (arrow keys, videos play). Not indexed, no referrer. Written with
// hono/html, which escapes every value put in a template: titles, names and descriptions are
// whatever people typed.
import { html } from 'hono/html';
import { SHARE_ASSETS_PATH } from './page-assets';
import type { SharedItem } from './items';

export interface SharePageData {
  token: string;
  what: 'Board' | 'Request';
  title: string;
  description: string | null;
  sharedBy: string | null;
  expiresAt: Date;
  items: SharedItem[];
}

const DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' });

/** A language as people read it: a code by its English name, a name ("japanese") capitalised. */
const languageName = (language: string) => {
  if (/^[a-z]{2,3}(-[A-Z]{2})?$/.test(language))
    try {
      return LANGUAGE_NAMES.of(language) ?? language;
    } catch {
      return language;
    }
  return language.charAt(0).toUpperCase() + language.slice(1);
};

/** The same-origin address of one of a link's files. */
export const sharedMediaPath = (token: string, key: string, role: string) =>
  `/s/${token}/media/${key}/${role}`;

type Html = ReturnType<typeof html>;

function head(title: string, shared = false) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${title} · Media Console</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${SHARE_ASSETS_PATH}/share.css">
<script type="module" src="${SHARE_ASSETS_PATH}/share.js"></script>
</head>
<body>
<header class="bar"><span class="brand"><img src="/favicon.svg" alt="" width="24" height="24"> Media Console</span>${shared ? html`<span class="note">Shared with you · view only</span>` : ''}</header>`;
}

function tile(data: SharePageData, item: SharedItem, index: number): Html {
  const video = item.kept.includes('video') && item.kind !== 'image_generate';
  const role = video ? 'video' : 'image';
  const src = sharedMediaPath(data.token, item.key, role);
  const poster = item.kept.includes('thumbnail') ? sharedMediaPath(data.token, item.key, 'thumbnail') : '';
  const detail = [
    item.language && languageName(item.language),
    item.creator && `by ${item.creator}`,
    DATE.format(item.createdAt),
  ]
    .filter(Boolean)
    .join(' · ');
  const { title } = item;
  const media = video
    ? // Without a poster, the first frame (#t=0.1) stands in for one.
      html`<video src="${poster ? src : `${src}#t=0.1`}"${poster ? html` poster="${poster}"` : ''} preload="metadata" muted playsinline></video><span class="play" aria-hidden="true"></span>`
    : html`<img src="${src}" alt="${title}" loading="${index < 8 ? 'eager' : 'lazy'}" decoding="async">`;
  return html`<li><figure>
<a class="tile" href="${src}" data-share-item data-kind="${role}" data-src="${src}" data-poster="${poster}" data-title="${title}" data-detail="${detail}" aria-label="${video ? 'Play' : 'Open'} ${title} large">${media}</a>
<figcaption><p class="title">${title}</p><p class="detail">${detail}</p></figcaption>
</figure></li>`;
}

export function renderSharePage(data: SharePageData) {
  const count = data.items.length;
  const eyebrow = `${data.what} · ${count} ${count === 1 ? 'result' : 'results'}`;
  const meta = [
    data.sharedBy && `Shared by ${data.sharedBy}`,
    `link open until ${DATE.format(data.expiresAt)}`,
  ]
    .filter(Boolean)
    .join(' · ');
  const body = count
    ? html`<ul class="grid" aria-label="Shared results">${data.items.map((item, n) => tile(data, item, n))}</ul>`
    : html`<p class="empty">Nothing to show yet: the shared results are not ready, or were removed.</p>`;
  return html`${head(data.title, true)}
<main>
<section class="intro">
<p class="eyebrow">${eyebrow}</p>
<div class="heading"><h1>${data.title}</h1>${count ? html`<button type="button" class="present" data-present hidden>Present</button>` : ''}</div>
${data.description ? html`<p class="description">${data.description}</p>` : ''}
<p class="meta">${meta}</p>
</section>
${body}
<footer>This page shows only what was shared with you. The link stops working when it expires or is revoked.</footer>
</main>
</body>
</html>`;
}

/** Unknown, revoked and expired links all get this page, with the same status. */
export function renderShareGone() {
  return html`${head('Link not available')}
<main class="gone">
<h1>This link is not available</h1>
<p>It may have expired or been revoked. Ask the person who shared it for a new one.</p>
</main>
</body>
</html>`;
}

export function renderShareSlowed(seconds: number) {
  return html`${head('Too many tries')}
<main class="gone">
<h1>Too many tries</h1>
<p>This address was given too many links that do not exist. Try again in ${seconds} seconds.</p>
</main>
</body>
</html>`;
}
