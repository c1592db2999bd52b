// The sniffer at its edges: a signature exactly as long as the bytes and one byte short, the other
// container boxes, text that is not UTF-8 (a NUL, a broken sequence, a character cut by the window),
// a byte-order mark whole or not, SVG written every way it starts, each caption format's anchors,
// and a stored type served back.
import { describe, expect, it } from 'vitest';
import { OCTET_STREAM, servedAs, sniff } from './sniff';

const text = (value: string) => new TextEncoder().encode(value);
const bytes = (...values: number[]) => new Uint8Array(values);
const typeOf = (head: Uint8Array, role: string) => sniff(head, role).type;
const utf8 = (type: string) => ({ type: `${type}; charset=utf-8`, inline: true });

describe('binary signatures', () => {
  it('match with exactly their own bytes, not one byte short, and are shown inline', () => {
    expect(sniff(bytes(0xff, 0xd8, 0xff), 'image')).toEqual({ type: 'image/jpeg', inline: true });
    expect(sniff(bytes(0xff, 0xd8), 'image')).toEqual(OCTET_STREAM);
    expect(typeOf(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a), 'image')).toBe(OCTET_STREAM.type);
    expect(typeOf(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0b), 'image')).toBe(OCTET_STREAM.type);
    expect(typeOf(bytes(0x1a, 0x45, 0xdf), 'video')).toBe(OCTET_STREAM.type);
    expect(typeOf(text('GIF87a'), 'image')).toBe('image/gif');
    expect(typeOf(text('GIF88a'), 'image')).toBe(OCTET_STREAM.type);
  });

  it('knows WebP only inside RIFF, and the QuickTime boxes', () => {
    expect(typeOf(text('RIFF\0\0\0\0WAVE'), 'image')).toBe(OCTET_STREAM.type);
    expect(typeOf(text('RIFX\0\0\0\0WEBP'), 'image')).toBe(OCTET_STREAM.type);
    for (const box of ['moov', 'mdat', 'wide', 'free'])
      expect(typeOf(text(`\0\0\0\x08${box}`), 'video'), box).toBe('video/quicktime');
    expect(typeOf(text('\0\0\0\x08skip'), 'video')).toBe(OCTET_STREAM.type);
    expect(typeOf(text('\0\0\0\x14ftypqt'), 'video')).toBe('video/mp4');
  });
});

describe('text', () => {
  it('is no text with a NUL or a broken sequence, but is with a character cut at the end', () => {
    expect(sniff(text('WEBVTT\n\0'), 'caption')).toEqual(OCTET_STREAM);
    expect(sniff(bytes(0x48, 0xc3, 0x28), 'caption')).toEqual(OCTET_STREAM);
    expect(sniff(text('Hé').subarray(0, 2), 'caption')).toEqual(utf8('text/plain'));
  });

  it('drops a whole byte-order mark only', () => {
    expect(sniff(new Uint8Array([0xef, 0xbb, 0xbf, ...text('WEBVTT')]), 'caption')).toEqual(utf8('text/vtt'));
    expect(sniff(new Uint8Array([0xef, 0xbb, 0x41, ...text('WEBVTT')]), 'caption')).toEqual(OCTET_STREAM);
    expect(sniff(new Uint8Array([0xef, 0x41, 0xbf]), 'caption')).toEqual(OCTET_STREAM);
  });

  it('is SVG however it starts, shown by <img> only, for images and thumbnails alone', () => {
    const svg = { type: 'image/svg+xml', inline: false };
    for (const start of [
      '<svg>',
      '<SVG\n',
      '  <svg width="1">',
      '<?xml version="1.0"?>\n<svg>',
      '<?xml?><svg>',
    ])
      expect(sniff(text(start), 'image'), start).toEqual(svg);
    expect(sniff(text('<svg>'), 'thumbnail')).toEqual(svg);
    expect(sniff(text('<svg>'), 'video')).toEqual(OCTET_STREAM);
    for (const start of ['<svgx>', '<?xml version="1.0"?><svgx>', '<?xmlx?><svg>', 'x<svg>'])
      expect(sniff(text(start), 'image'), start).toEqual(OCTET_STREAM);
  });

  it('tells the caption formats by their anchors, and anything else is plain', () => {
    expect(sniff(text('WEBVTT'), 'caption')).toEqual(utf8('text/vtt'));
    expect(sniff(text('WEBVTT\tkind'), 'caption')).toEqual(utf8('text/vtt'));
    expect(sniff(text('WEBVTTX'), 'caption')).toEqual(utf8('text/plain'));
    expect(sniff(text('x WEBVTT'), 'caption')).toEqual(utf8('text/plain'));
    expect(sniff(text('\n [script info]'), 'caption')).toEqual(utf8('text/x-ssa'));
    expect(sniff(text('x[Script Info]'), 'caption')).toEqual(utf8('text/plain'));
    expect(sniff(text('12\r\n1:02:03.4 --> 1:02:04.5'), 'caption')).toEqual(utf8('application/x-subrip'));
    for (const cue of [
      'x1\n00:00:01,000 --> ',
      '1\n000:00:01,000 --> ',
      '1\n00:00:01,0000 --> ',
      '1\n00:0:01,000 --> ',
      '1\n00:00:01:000 --> ',
      '1\n00:00:01,000 -> ',
      '\n00:00:01,000 --> ',
    ])
      expect(sniff(text(cue), 'caption'), cue).toEqual(utf8('text/plain'));
  });
});

describe('a stored type served back', () => {
  it('is inline unless it is SVG, octet-stream or none', () => {
    expect(servedAs('video/mp4')).toEqual({ type: 'video/mp4', inline: true });
    expect(servedAs('text/vtt; charset=utf-8')).toEqual({ type: 'text/vtt; charset=utf-8', inline: true });
    expect(servedAs('image/svg+xml')).toEqual({ type: 'image/svg+xml', inline: false });
    expect(servedAs('application/octet-stream')).toEqual(OCTET_STREAM);
    expect(servedAs('')).toEqual(OCTET_STREAM);
  });
});
