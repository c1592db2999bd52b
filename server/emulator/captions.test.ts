import { describe, expect, it } from 'vitest';
import { assTime, renderCaptions } from './captions';

describe('assTime', () => {
  it('formats H:MM:SS.cc', () => {
    expect(assTime(0)).toBe('0:00:00.00');
    expect(assTime(1.333)).toBe('0:00:01.33');
    expect(assTime(3_661.5)).toBe('1:01:01.50');
  });
});

describe('renderCaptions', () => {
  const text = renderCaptions({ language: 'Spanish', name: 'Spanish-Demo {x}\nline', seconds: 4 });

  it('has the three sections of an ASS file in order', () => {
    const sections = ['[Script Info]', '[V4+ Styles]', '[Events]'].map((section) => text.indexOf(section));
    expect(sections.every((index) => index >= 0)).toBe(true);
    expect([...sections].sort((a, b) => a - b)).toEqual(sections);
    expect(text).toContain('ScriptType: v4.00+');
  });

  it('has dialogue lines covering the video with the language and the name, on one line each', () => {
    const dialogue = text.split('\n').filter((line) => line.startsWith('Dialogue:'));
    expect(dialogue).toHaveLength(3);
    expect(dialogue[0]).toContain('Spanish translation');
    expect(dialogue[1]).toContain('Spanish-Demo x line');
    expect(dialogue[2]).toMatch(/,0:00:04\.00,Default,/);
    // Every Dialogue has the 10 fields of the Format line.
    for (const line of dialogue)
      expect(line.slice('Dialogue: '.length).split(',').length).toBeGreaterThanOrEqual(10);
  });
});
