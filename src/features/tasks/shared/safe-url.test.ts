import { describe, expect, it } from 'vitest';
import { fileNameOf, mediaLink, safeMediaUrl } from './safe-url';

describe('safeMediaUrl', () => {
  it('accepts http and https links', () => {
    expect(safeMediaUrl('https://cdn.example.com/v/a.mp4')).toBe('https://cdn.example.com/v/a.mp4');
    expect(safeMediaUrl(' http://127.0.0.1:5173/emulator/media/videos/x.mp4 ')).toBe(
      'http://127.0.0.1:5173/emulator/media/videos/x.mp4',
    );
    expect(safeMediaUrl('HTTPS://EXAMPLE.COM/x.png')).toBe('https://example.com/x.png');
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'vbscript:msgbox',
    'file:///etc/passwd',
    'blob:https://example.com/uuid',
    '//evil.example.com/x.mp4',
    '/relative/path.mp4',
    'garbage',
    'https://',
    '',
  ])('refuses %s', (value) => {
    expect(safeMediaUrl(value)).toBeUndefined();
  });

  it('refuses values that are not strings', () => {
    expect(safeMediaUrl(undefined)).toBeUndefined();
    expect(safeMediaUrl(42)).toBeUndefined();
    expect(safeMediaUrl({ href: 'https://example.com' })).toBeUndefined();
  });

  it('keeps the raw text of an unsafe link for display', () => {
    expect(mediaLink('javascript:alert(1)')).toEqual({ url: undefined, raw: 'javascript:alert(1)' });
    expect(mediaLink('')).toEqual({ url: undefined, raw: undefined });
  });

  it('names downloads after the file', () => {
    expect(fileNameOf('https://x.test/a/b/video%201.mp4?sig=1', 'f')).toBe('video 1.mp4');
    expect(fileNameOf('https://x.test/', 'fallback')).toBe('fallback');
  });
});
