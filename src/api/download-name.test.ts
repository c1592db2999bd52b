import { describe, expect, it } from 'vitest';
import { contentDisposition, downloadName, extensionOf, slugOf } from './download-name';

describe('download names come from the request', () => {
  it('a translation: the language, then the output name as typed', () => {
    expect(
      downloadName(
        { id: 'vt-1', kind: 'video_translate', name: 'All-hands recap', language: 'Japanese' },
        'mp4',
      ),
    ).toBe('Japanese - All-hands recap.mp4');
  });
  it('images: the prompt as a slug, numbered within their request', () => {
    const batch = ['i-1', 'i-2', 'i-3'];
    expect(
      downloadName({ id: 'i-2', kind: 'image_generate', prompt: 'Red bicycle, Lisbon', batch }, 'png'),
    ).toBe('red-bicycle-lisbon-2.png');
    expect(
      downloadName({ id: 'i-9', kind: 'image_generate', prompt: 'Red bicycle', batch: ['i-9'] }, 'png'),
    ).toBe('red-bicycle.png');
  });
  it('nothing names it: the task id', () => {
    expect(downloadName({ id: 'i2v-abc', kind: 'image_to_video' }, 'mp4')).toBe('i2v-abc.mp4');
  });
  it('no path separators, control or bidirectional characters survive', () => {
    const name = downloadName(
      { id: 'v', kind: 'video_translate', name: '../etc/\u202Epasswd\u0000', language: 'German' },
      'mp4',
    );
    expect(name).toBe('German - .. etc passwd.mp4');
    expect(name).not.toMatch(/[/\\\u202e]/);
    expect(name.includes(String.fromCharCode(0))).toBe(false);
  });
  it('slugs keep any script and cut long prompts at a word', () => {
    expect(slugOf('東京の夜景 ネオン')).toBe('東京の夜景-ネオン');
    expect(slugOf('café à Paris')).toBe('cafe-a-paris');
    expect(slugOf('word '.repeat(40)).length).toBeLessThanOrEqual(60);
    expect(extensionOf('https://x.test/a/b/result.PNG?sig=1')).toBe('png');
    expect(extensionOf('https://x.test/a/b/')).toBeUndefined();
  });
  it('Content-Disposition carries an ASCII fallback and the exact name in filename*', () => {
    expect(contentDisposition('Japanese - All-hands recap.mp4')).toBe(
      `attachment; filename="Japanese - All-hands recap.mp4"; filename*=UTF-8''Japanese%20-%20All-hands%20recap.mp4`,
    );
    expect(contentDisposition('日本語 "x".mp4')).toBe(
      `attachment; filename="___ _x_.mp4"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E%20%22x%22.mp4`,
    );
  });
});
