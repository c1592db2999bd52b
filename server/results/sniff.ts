// What a kept file is, read from its first bytes, never from the service's Content-Type or the
// URL's extension: a result that is really HTML (or anything else not on the list) is served as
// application/octet-stream, as an attachment. SVG (the emulator draws its images as SVG) is shown
// by <img> but, opened on its own, downloads; the sandboxing CSP keeps it inert either way.

/** How many leading bytes the sniffer looks at. */
export const SNIFF_BYTES = 512;

interface Sniffed {
  type: string;
  /** False: served with Content-Disposition: attachment. */
  inline: boolean;
}

export const OCTET_STREAM: Sniffed = { type: 'application/octet-stream', inline: false };

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, Math.min(to, bytes.length)));

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);

function sniffBinary(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  const box = ascii(bytes, 4, 8);
  if (box === 'ftyp') return ascii(bytes, 8, 12) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  if (box === 'moov' || box === 'mdat' || box === 'wide' || box === 'free') return 'video/quicktime';
  return undefined;
}

/** The leading text, or undefined when the bytes are not UTF-8 text (a NUL, an invalid sequence). */
function leadingText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    // stream: a multi-byte character cut by the sniff window is not an error.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return undefined;
  }
}

const SRT = /^\d+\r?\n\d{1,2}:\d{2}:\d{2}[,.]\d{1,3} --> /;

function sniffText(text: string, role: string): Sniffed | undefined {
  const trimmed = text.trimStart();
  if (/^<svg[\s>]/i.test(trimmed) || (/^<\?xml[\s?]/i.test(trimmed) && /<svg[\s>]/i.test(trimmed)))
    return role === 'image' || role === 'thumbnail' ? { type: 'image/svg+xml', inline: false } : undefined;
  if (role !== 'caption') return undefined;
  // Markup of any kind (HTML, XML) is not a caption file.
  if (trimmed.startsWith('<')) return undefined;
  const utf8 = (type: string) => ({ type: `${type}; charset=utf-8`, inline: true });
  if (/^WEBVTT(\s|$)/.test(trimmed)) return utf8('text/vtt');
  if (/^\[Script Info\]/i.test(trimmed)) return utf8('text/x-ssa');
  if (SRT.test(trimmed)) return utf8('application/x-subrip');
  return utf8('text/plain');
}

/** `role`: image, video, thumbnail or caption; text is allowed for captions only. */
export function sniff(head: Uint8Array, role: string): Sniffed {
  const binary = sniffBinary(head);
  if (binary) return { type: binary, inline: true };
  const text = leadingText(
    head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head,
  );
  return (text !== undefined && sniffText(text, role)) || OCTET_STREAM;
}

/** A stored content type back to what is served (the row keeps the sniffed type). */
export function servedAs(contentType: string | null): Sniffed {
  if (!contentType) return OCTET_STREAM;
  if (contentType === 'image/svg+xml') return { type: contentType, inline: false };
  if (contentType === OCTET_STREAM.type) return OCTET_STREAM;
  return { type: contentType, inline: true };
}
