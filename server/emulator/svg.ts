// The "generated image": an SVG in the requested aspect ratio that shows the prompt on a gradient
// picked from the task id, so every result looks different but the same task always looks the same.
import { createHash } from 'node:crypto';

const LONG_SIDE = 1024;
const QUALITY_LONG_SIDE: Record<string, number> = { '1K': 1024, '2K': 2048, '4K': 4096 };

/** XML text and attribute escaping; also drops control characters that are not allowed in XML. */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

export function ratioSize(ratio: string, longSide: number): { width: number; height: number } {
  const [w, h] = ratio.split(':').map(Number);
  if (!w || !h) return { width: longSide, height: longSide };
  return w >= h
    ? { width: longSide, height: Math.round((longSide * h) / w) }
    : { width: Math.round((longSide * w) / h), height: longSide };
}

/** Greedy word wrap; words longer than a line are cut, and overflow ends with an ellipsis. */
export function wrapText(text: string, maxChars: number, maxLines: number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let word of words) {
    while (word.length > maxChars) {
      if (line) lines.push(line);
      lines.push(word.slice(0, maxChars));
      word = word.slice(maxChars);
      line = '';
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= maxChars) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1]!;
  kept[maxLines - 1] = `${last.slice(0, Math.max(0, maxChars - 1)).trimEnd()}…`;
  return kept;
}

export function gradientFor(seed: string): [string, string] {
  const digest = createHash('sha256').update(seed).digest();
  const hue = Math.round((digest.readUInt16BE(0) / 65535) * 360);
  const shift = 35 + (digest[2]! % 50);
  return [`hsl(${hue} 70% 52%)`, `hsl(${(hue + shift) % 360} 75% 38%)`];
}

export interface ImageSvgInput {
  taskId: string;
  prompt: string;
  ratio: string;
  quality: string;
  thumbnail?: boolean;
}

export function renderImageSvg({ taskId, prompt, ratio, quality, thumbnail = false }: ImageSvgInput): string {
  const view = ratioSize(ratio, LONG_SIDE);
  const size = ratioSize(ratio, thumbnail ? 320 : (QUALITY_LONG_SIDE[quality] ?? LONG_SIDE));
  const [from, to] = gradientFor(taskId);
  const pad = Math.round(Math.min(view.width, view.height) * 0.08);
  const fontSize = Math.round(Math.max(22, Math.min(view.width, view.height) / 16));
  const maxChars = Math.max(8, Math.floor((view.width - 2 * pad) / (fontSize * 0.62)));
  const maxLines = Math.max(2, Math.floor((view.height - 4 * pad) / (fontSize * 1.3)));
  const lines = wrapText(prompt, maxChars, thumbnail ? Math.min(4, maxLines) : maxLines);
  const top = view.height / 2 - ((lines.length - 1) * fontSize * 1.3) / 2;
  const tspans = lines
    .map(
      (line, i) =>
        `<tspan x="${view.width / 2}" y="${Math.round(top + i * fontSize * 1.3)}">${escapeXml(line)}</tspan>`,
    )
    .join('');
  const small = Math.round(fontSize * 0.5);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}" viewBox="0 0 ${view.width} ${view.height}" role="img" aria-label="${escapeXml(prompt)}">`,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`,
    `<rect width="100%" height="100%" fill="url(#g)"/>`,
    `<circle cx="${view.width * 0.82}" cy="${view.height * 0.18}" r="${Math.min(view.width, view.height) * 0.28}" fill="#fff" fill-opacity="0.08"/>`,
    `<text font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="${fontSize}" font-weight="600" fill="#fff" text-anchor="middle" dominant-baseline="middle">${tspans}</text>`,
    `<text x="${pad}" y="${view.height - pad}" font-family="ui-monospace, monospace" font-size="${small}" fill="#fff" fill-opacity="0.75">${escapeXml(taskId)}</text>`,
    `<text x="${view.width - pad}" y="${pad}" font-family="system-ui, sans-serif" font-size="${small}" fill="#fff" fill-opacity="0.75" text-anchor="end">Emulated · ${escapeXml(quality)} · ${escapeXml(ratio)}</text>`,
    `</svg>`,
  ].join('');
}
