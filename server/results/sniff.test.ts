// A kept file's type comes from its first bytes, on an allow-list; text only for captions.
import { describe, expect, it } from 'vitest';
import { OCTET_STREAM, servedAs, sniff } from './sniff';

const text = (value: string) => new TextEncoder().encode(value);
const bytes = (...values: number[]) => new Uint8Array(values);

describe('sniffing a kept file', () => {
  it('knows the image and video formats by their signatures', () => {
    expect(sniff(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), 'image').type).toBe('image/png');
    expect(sniff(bytes(0xff, 0xd8, 0xff, 0xe0), 'image').type).toBe('image/jpeg');
    expect(sniff(text('GIF89a...'), 'image').type).toBe('image/gif');
    expect(sniff(text('RIFF\0\0\0\0WEBPVP8 '), 'image').type).toBe('image/webp');
    expect(sniff(text('\0\0\0\x18ftypisom'), 'video').type).toBe('video/mp4');
    expect(sniff(text('\0\0\0\x14ftypqt  '), 'video').type).toBe('video/quicktime');
    expect(sniff(bytes(0x1a, 0x45, 0xdf, 0xa3, 1), 'video').type).toBe('video/webm');
  });

  it('takes caption text (ASS, SRT, VTT, plain), for captions only', () => {
    expect(sniff(text('\ufeff[Script Info]\nTitle: t'), 'caption').type).toBe('text/x-ssa; charset=utf-8');
    expect(sniff(text('1\n00:00:01,000 --> 00:00:02,000\nHi'), 'caption').type).toBe(
      'application/x-subrip; charset=utf-8',
    );
    expect(sniff(text('WEBVTT\n\n00:01.000 --> 00:02.000'), 'caption').type).toBe('text/vtt; charset=utf-8');
    expect(sniff(text('こんにちは'), 'caption').type).toBe('text/plain; charset=utf-8');
    expect(sniff(text('[Script Info]'), 'video')).toEqual(OCTET_STREAM);
  });

  it('never types markup as something a browser would render inline', () => {
    for (const role of ['image', 'video', 'thumbnail', 'caption'])
      for (const page of ['<!doctype html><script>1</script>', '  <html>', '<?xml version="1.0"?><x/>'])
        expect(sniff(text(page), role)).toEqual(OCTET_STREAM);
    expect(sniff(text('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image')).toEqual({
      type: 'image/svg+xml',
      inline: false,
    });
    expect(sniff(text('<svg/>'), 'caption')).toEqual(OCTET_STREAM);
    expect(sniff(bytes(0xff, 0xfe, 0, 0x41), 'caption')).toEqual(OCTET_STREAM);
    expect(servedAs('image/svg+xml').inline).toBe(false);
    expect(servedAs(null)).toEqual(OCTET_STREAM);
  });
});
