// The share page's stylesheet and script, served from the server itself under /s/-/ (public like
// the page: no token is needed to read them, and they hold nothing of the record). Written by hand
// so the page needs none of the console's app; the script only adds the large view and the
// presentation to links that work without it.
export const SHARE_ASSETS_PATH = '/s/-';

export const SHARE_CSS = `
:root{color-scheme:light dark;--bg:#f6f6f8;--card:#fff;--text:#18181b;--muted:#52525b;--line:#e4e4e7;--accent:#4f46e5;--on-accent:#fff;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
@media (prefers-color-scheme:dark){:root{--bg:#0b0b0f;--card:#18181b;--text:#f4f4f5;--muted:#a1a1aa;--line:#27272a;--accent:#818cf8;--on-accent:#0b0b0f}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);line-height:1.5}
.bar{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding:.75rem clamp(1rem,4vw,2.5rem);border-bottom:1px solid var(--line);background:var(--card)}
.brand{display:inline-flex;align-items:center;gap:.5rem;font-weight:600;letter-spacing:-.01em}
.note{font-size:.8125rem;color:var(--muted)}
main{max-width:1280px;margin:0 auto;padding:clamp(1.25rem,4vw,2.5rem) clamp(1rem,4vw,2.5rem) 3rem}
.intro{margin-bottom:1.75rem}
.eyebrow{margin:0;font-size:.8125rem;font-weight:600;text-transform:uppercase;letter-spacing:.06em;color:var(--accent)}
.heading{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.75rem 1rem}
h1{margin:.25rem 0;font-size:clamp(1.5rem,3.2vw,2.25rem);line-height:1.2;letter-spacing:-.02em;overflow-wrap:anywhere}
.description{max-width:48rem;margin:.25rem 0;color:var(--text);white-space:pre-wrap;overflow-wrap:anywhere}
.meta{margin:.25rem 0 0;font-size:.875rem;color:var(--muted)}
.present{min-height:2.5rem;padding:.5rem 1.1rem;border:0;border-radius:.6rem;background:var(--accent);color:var(--on-accent);font:inherit;font-weight:600;cursor:pointer}
.present:hover{filter:brightness(1.08)}
.grid{list-style:none;margin:0;padding:0;display:grid;gap:clamp(.75rem,2vw,1.25rem);grid-template-columns:repeat(auto-fill,minmax(min(100%,260px),1fr))}
figure{margin:0;height:100%;display:flex;flex-direction:column;border:1px solid var(--line);border-radius:.9rem;overflow:hidden;background:var(--card);box-shadow:0 1px 2px rgb(0 0 0/.05)}
.tile{position:relative;display:block;aspect-ratio:4/3;overflow:hidden;background:#18181b;cursor:zoom-in}
.tile img,.tile video{position:absolute;inset:0;display:block;width:100%;height:100%;object-fit:cover;transition:transform .25s}
.tile:hover img,.tile:hover video{transform:scale(1.02)}
.play{position:absolute;z-index:1;inset:auto auto .75rem .75rem;width:2.5rem;height:2.5rem;border-radius:50%;background:rgb(0 0 0/.6)}
.play::after{content:"";position:absolute;left:1rem;top:.75rem;border-style:solid;border-width:.5rem 0 .5rem .8rem;border-color:transparent transparent transparent #fff}
figcaption{padding:.7rem .9rem .85rem}
figcaption p{margin:0;overflow-wrap:anywhere}
.title{font-weight:600;font-size:.9375rem;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.detail{font-size:.8125rem;color:var(--muted)}
.empty{padding:3rem 1rem;text-align:center;border:1px dashed var(--line);border-radius:.9rem;color:var(--muted)}
footer{margin-top:2.5rem;font-size:.8125rem;color:var(--muted);text-align:center}
.gone{max-width:36rem;text-align:center;padding-top:5rem}
.gone p{color:var(--muted)}
a:focus-visible,button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.viewer{position:fixed;inset:0;z-index:10;display:grid;grid-template-rows:auto 1fr auto;background:#000;color:#f4f4f5}
.viewer[hidden]{display:none}
.viewer .top{display:flex;justify-content:space-between;align-items:center;gap:1rem;padding:.6rem 1rem;font-size:.875rem;color:#d4d4d8}
.viewer .stage{position:relative;display:flex;align-items:center;justify-content:center;min-height:0;padding:0 3.5rem}
.viewer .stage img,.viewer .stage video{max-width:100%;max-height:100%;object-fit:contain}
.viewer .caption{padding:.75rem 1rem 1rem;text-align:center}
.viewer .caption p{margin:0}
.viewer .caption .detail{color:#a1a1aa}
.viewer button{min-width:2.75rem;min-height:2.75rem;border:0;border-radius:999px;background:rgb(255 255 255/.12);color:#fff;font:inherit;font-size:1rem;cursor:pointer}
.viewer button:hover{background:rgb(255 255 255/.22)}
.viewer button:disabled{opacity:.3;cursor:default}
.viewer .prev,.viewer .next{position:absolute;top:50%;transform:translateY(-50%)}
.viewer .prev{left:.5rem}.viewer .next{right:.5rem}
@media (max-width:560px){.note{display:none}.viewer .stage{padding:0 .5rem}.viewer .prev,.viewer .next{top:auto;bottom:.5rem;transform:none;background:rgb(0 0 0/.5)}}
`;

export const SHARE_JS = `
const tiles = [...document.querySelectorAll('[data-share-item]')];
const present = document.querySelector('[data-present]');
if (tiles.length) {
  const make = (tag, props = {}) => Object.assign(document.createElement(tag), props);
  const viewer = make('div', { className: 'viewer', hidden: true });
  viewer.setAttribute('role', 'dialog');
  viewer.setAttribute('aria-modal', 'true');
  viewer.setAttribute('aria-label', 'Large view');
  const counter = make('span');
  const close = make('button', { type: 'button', textContent: '\\u2715' });
  close.setAttribute('aria-label', 'Close');
  const top = make('div', { className: 'top' });
  top.append(counter, close);
  const stage = make('div', { className: 'stage' });
  const prev = make('button', { type: 'button', className: 'prev', textContent: '\\u2190' });
  const next = make('button', { type: 'button', className: 'next', textContent: '\\u2192' });
  prev.setAttribute('aria-label', 'Previous');
  next.setAttribute('aria-label', 'Next');
  const title = make('p', { className: 'title' });
  const detail = make('p', { className: 'detail' });
  const caption = make('div', { className: 'caption' });
  caption.append(title, detail);
  viewer.append(top, stage, caption);
  document.body.append(viewer);
  let index = 0;
  let opener = null;
  const show = (to) => {
    index = Math.max(0, Math.min(tiles.length - 1, to));
    const item = tiles[index].dataset;
    const media = item.kind === 'video'
      ? make('video', { src: item.src, controls: true, autoplay: true, playsInline: true })
      : make('img', { src: item.src, alt: item.title });
    if (item.kind === 'video' && item.poster) media.poster = item.poster;
    stage.replaceChildren(prev, media, next);
    title.textContent = item.title;
    detail.textContent = item.detail;
    counter.textContent = (index + 1) + ' of ' + tiles.length;
    prev.disabled = index === 0;
    next.disabled = index === tiles.length - 1;
  };
  const open = (to) => {
    opener = document.activeElement;
    viewer.hidden = false;
    document.body.style.overflow = 'hidden';
    show(to);
    close.focus();
  };
  const shut = () => {
    if (document.fullscreenElement) document.exitFullscreen();
    viewer.hidden = true;
    stage.replaceChildren();
    document.body.style.overflow = '';
    opener?.focus();
  };
  tiles.forEach((tile, n) => tile.addEventListener('click', (event) => {
    event.preventDefault();
    open(n);
  }));
  prev.addEventListener('click', () => show(index - 1));
  next.addEventListener('click', () => show(index + 1));
  close.addEventListener('click', shut);
  document.addEventListener('keydown', (event) => {
    if (viewer.hidden || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = { ArrowRight: index + 1, ArrowDown: index + 1, PageDown: index + 1, ArrowLeft: index - 1,
      ArrowUp: index - 1, PageUp: index - 1, Home: 0, End: tiles.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
    } else if (event.key === 'Escape' && !document.fullscreenElement) shut();
  });
  document.addEventListener('fullscreenchange', () => {
    if (!document.fullscreenElement && !viewer.hidden) close.focus();
  });
  if (present) {
    present.hidden = false;
    present.addEventListener('click', () => {
      open(0);
      viewer.requestFullscreen?.().catch(() => {});
    });
  }
}
`;
