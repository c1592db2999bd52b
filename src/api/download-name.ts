// What a result file is called when someone downloads it: named from its request, not its task id.
// "Japanese - All-hands recap.mp4" for a translation (the output name kept as typed),
// "red-bicycle-lisbon-2.png" for the second of several images from one prompt (the prompt made a
// short slug). Shared by the server (Content-Disposition) and the browser (the download attribute).

export interface DownloadNameInput {
  id: string;
  kind: string;
  prompt?: string | null;
  name?: string | null;
  language?: string | null;
  /** The request's title when the record has one (it falls back to the uploaded file's name). */
  title?: string | null;
  /** The ids of the same request, to number images 1..n. */
  batch?: readonly string[] | null;
}

const MAX_STEM = 80;

/** Characters no file system takes, control characters, and the bidirectional tricks (U+202E). */
// eslint-disable-next-line no-control-regex -- control characters never belong in a file name
const UNSAFE = /[\u0000-\u001f\u007f<>:"/\\|?*\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g;

/** A prompt as a short slug: lower case letters and digits of any script, joined by dashes. */
export function slugOf(text: string, max = 60): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max);
  const lastDash = cut.lastIndexOf('-');
  return lastDash > max / 2 ? cut.slice(0, lastDash) : cut;
}

/** A name as typed, made safe for a file system: no separators, reserved or control characters. */
export function safeFileStem(text: string): string {
  const clean = text.replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim().replace(/^\.+/, '');
  return clean.slice(0, MAX_STEM).trim();
}

/** The extension of a URL's last path segment ("png"), or undefined. */
export function extensionOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    const match = /\.([a-z0-9]{1,5})$/i.exec(last);
    return match?.[1]?.toLowerCase();
  } catch {
    return undefined;
  }
}

const text = (value: string | null | undefined) => (value && value.trim() ? value.trim() : undefined);

/** The file name (stem and extension) for a task's result. */
export function downloadName(task: DownloadNameInput, extension: string): string {
  const ext = extension.replace(/^\./, '');
  const prompt = text(task.prompt);
  const title = text(task.title) ?? prompt ?? text(task.name);
  let stem: string | undefined;
  if (task.kind === 'video_translate') {
    const named = text(task.title) ?? text(task.name);
    const language = text(task.language);
    stem = named ? safeFileStem(language ? `${language} - ${named}` : named) : undefined;
  } else if (prompt) {
    const slug = slugOf(prompt);
    const batch = task.batch ?? [];
    const index = batch.length > 1 ? batch.indexOf(task.id) + 1 : 0;
    stem = slug ? (index > 0 ? `${slug}-${index}` : slug) : undefined;
  } else if (title) {
    stem = safeFileStem(title);
  }
  return `${stem || safeFileStem(task.id) || 'result'}.${ext}`;
}

/**
 * A Content-Disposition header for `name` (RFC 6266): a plain ASCII `filename` for old clients and
 * the exact name, UTF-8 and percent-encoded, in `filename*`.
 */
export function contentDisposition(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
