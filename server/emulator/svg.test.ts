import { describe, expect, it } from 'vitest';
import { IMAGE_RATIOS } from '../../src/api/schemas';
import { escapeXml, gradientFor, ratioSize, renderImageSvg, wrapText } from './svg';

describe('escapeXml', () => {
  it('escapes markup and drops characters XML forbids', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
    expect(escapeXml('a\u0000b\u0007c')).toBe('abc');
  });
});

describe('ratioSize', () => {
  it.each(IMAGE_RATIOS)('keeps the ratio %s with the long side given', (ratio) => {
    const [w, h] = ratio.split(':').map(Number) as [number, number];
    const size = ratioSize(ratio, 1024);
    expect(Math.max(size.width, size.height)).toBe(1024);
    expect(size.width / size.height).toBeCloseTo(w / h, 2);
  });
});

describe('wrapText', () => {
  it('wraps on words within the width', () => {
    expect(wrapText('one two three four', 9, 5)).toEqual(['one two', 'three', 'four']);
  });
  it('cuts words longer than a line', () => {
    expect(wrapText('abcdefghij', 4, 5)).toEqual(['abcd', 'efgh', 'ij']);
  });
  it('ends with an ellipsis when lines run out', () => {
    const lines = wrapText('a b c d e f g h', 3, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
  });
});

describe('renderImageSvg', () => {
  const input = { taskId: 'i2is-abc', prompt: 'A fox & a <hound>', ratio: '4:3', quality: '2K' };

  it('is deterministic per task and differs between tasks', () => {
    expect(renderImageSvg(input)).toBe(renderImageSvg(input));
    expect(gradientFor('i2is-abc')).not.toEqual(gradientFor('i2is-abd'));
  });

  it('has the requested ratio, the escaped prompt and the task id', () => {
    const svg = renderImageSvg(input);
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="2048" height="1536" viewBox="0 0 1024 768"/,
    );
    expect(svg).toContain('A fox &amp; a &lt;hound&gt;');
    expect(svg).toContain('i2is-abc');
    expect(svg).not.toContain('<hound>');
  });

  it('keeps a 1000-character prompt inside the picture', () => {
    const svg = renderImageSvg({ ...input, ratio: '21:9', prompt: 'word '.repeat(200) });
    const lines = svg.match(/<tspan/g) ?? [];
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.length).toBeLessThan(12);
    expect(svg).toContain('…');
  });
});
