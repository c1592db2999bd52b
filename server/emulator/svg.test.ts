import { describe, expect, it } from 'vitest';
import { IMAGE_RATIOS } from '../../src/api/schemas';
import { SCENES } from './demo-scenes';
import { escapeXml, ratioSize, renderImageSvg } from './svg';

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

describe('renderImageSvg', () => {
  const input = { taskId: 'i2is-abc', prompt: 'A fox & a <hound>', ratio: '4:3', quality: '2K' };
  const embedded = (svg: string) => /href="data:image\/webp;base64,([^"]+)"/.exec(svg)?.[1];

  it('is deterministic per task, and a prompt that names no scene gets one by task id', () => {
    expect(renderImageSvg(input)).toBe(renderImageSvg(input));
    const pictures = new Set(
      Array.from({ length: 12 }, (_, i) => embedded(renderImageSvg({ ...input, taskId: `i2is-${i}` }))),
    );
    expect(pictures.size).toBeGreaterThan(1);
  });

  it('has the requested ratio and the escaped prompt as its label, and draws no text over the picture', () => {
    const svg = renderImageSvg(input);
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="2048" height="1536" viewBox="0 0 1024 768"/,
    );
    expect(svg).toContain('aria-label="A fox &amp; a &lt;hound&gt;"');
    expect(svg).not.toContain('<hound>');
    expect(svg).not.toContain('<text');
    expect(svg).not.toContain('Emulated');
    expect(embedded(svg)?.length).toBeGreaterThan(1000);
  });

  it('picks the scene a prompt mentions, in the shape nearest its ratio', () => {
    const ocean = renderImageSvg({ ...input, prompt: 'Calm ocean at sunset', ratio: '9:16' });
    const same = renderImageSvg({
      ...input,
      taskId: 'i2is-other',
      prompt: 'A beach at sunset',
      ratio: '2:3',
    });
    expect(embedded(ocean)).toBe(embedded(same));
    const wide = renderImageSvg({ ...input, prompt: 'Calm ocean at sunset', ratio: '21:9' });
    expect(embedded(wide)).not.toBe(embedded(ocean));
    expect(SCENES.find((scene) => scene.keywords.test('Calm ocean at sunset'))?.name).toBe('ocean-sunset');
  });
});
