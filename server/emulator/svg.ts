// The "generated image": an SVG in the requested aspect ratio around one of the demo's rendered
// scenes (demo-scenes.ts), the one the prompt mentions, else one picked by the task id, cropped to
// fill the ratio. No text is drawn over it: it looks like a result, and the same task always looks
// the same. SVG keeps the result links and "Animate" (downloads.ts) as they were.
import { readFileSync } from 'node:fs';
import { hash32, sceneForPrompt, shapeFor } from './demo-scenes';

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

interface ImageSvgInput {
  taskId: string;
  prompt: string;
  ratio: string;
  quality: string;
  thumbnail?: boolean;
}

/** The demo scene's pixels for a prompt and a shape, read once from the assets folder. */
function sceneImage(prompt: string, taskId: string, ratio: string, thumbnail: boolean): string {
  const file = `demo/${sceneForPrompt(prompt, taskId).name}-${shapeFor(ratio)}${thumbnail ? '.thumb' : ''}.webp`;
  let data = encoded.get(file);
  if (!data) {
    data = Buffer.from(readFileSync(new URL(`./assets/${file}`, import.meta.url))).toString('base64');
    encoded.set(file, data);
  }
  return data;
}
const encoded = new Map<string, string>();

export function renderImageSvg({ taskId, prompt, ratio, quality, thumbnail = false }: ImageSvgInput): string {
  const view = ratioSize(ratio, LONG_SIDE);
  const size = ratioSize(ratio, thumbnail ? 320 : (QUALITY_LONG_SIDE[quality] ?? LONG_SIDE));
  const pixels = sceneImage(prompt, taskId, ratio, thumbnail);
  // Images of one request show the same scene; every other one is mirrored, so they are not twins.
  const mirror = hash32(taskId) % 2 ? ` transform="translate(${view.width} 0) scale(-1 1)"` : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}" viewBox="0 0 ${view.width} ${view.height}" role="img" aria-label="${escapeXml(prompt)}">`,
    `<image${mirror} width="${view.width}" height="${view.height}" preserveAspectRatio="xMidYMid slice" href="data:image/webp;base64,${pixels}"/>`,
    `</svg>`,
  ].join('');
}
