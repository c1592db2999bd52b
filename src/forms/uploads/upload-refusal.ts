// The browser's check of a file before anything is sent: its size first (free), then its first
// bytes (the same sniffer the emulator uses), never its name. Loaded with the first file.
import { SNIFF_BYTES, sniffMediaType } from '@/api/media-type';
import { formatBytes, type UploadAccept } from './upload-accept';

/** Why the file is refused, in words; undefined when it may be sent. */
export async function refusalOf(file: File, accept: UploadAccept): Promise<string | undefined> {
  const what = accept.kind === 'image' ? 'images' : 'videos';
  if (file.size > accept.maxBytes) {
    return `${file.name} is ${formatBytes(file.size)}; ${what} can be at most ${formatBytes(accept.maxBytes)}. Nothing was sent.`;
  }
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  const type = sniffMediaType(head);
  if (!type || !accept.exts.includes(type.ext)) {
    const found = type ? ` (its content is ${type.ext.toUpperCase()})` : '';
    return `${file.name} is not a ${accept.label} ${accept.kind}${found}. Nothing was sent.`;
  }
  return undefined;
}
