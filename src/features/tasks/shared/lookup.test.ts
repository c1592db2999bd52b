import { describe, expect, it } from 'vitest';
import { inferTaskKind, parseTaskIds } from './lookup';

describe('parseTaskIds', () => {
  it('splits on spaces, commas, semicolons and new lines, dropping duplicates', () => {
    expect(parseTaskIds('i2v-1, i2is-2\nvt-3;\t i2v-1  ').ids).toEqual(['i2v-1', 'i2is-2', 'vt-3']);
  });

  it('strips quotes around pasted ids', () => {
    expect(parseTaskIds(`"i2v-1", 'vt-2'`).ids).toEqual(['i2v-1', 'vt-2']);
  });

  it('reports tokens that cannot be task ids', () => {
    expect(parseTaskIds('i2v-1 <script> a/b')).toEqual({ ids: ['i2v-1'], invalid: ['<script>', 'a/b'] });
  });

  it('returns nothing for blank input', () => {
    expect(parseTaskIds(' \n , ')).toEqual({ ids: [], invalid: [] });
  });
});

describe('inferTaskKind', () => {
  it('prefers what the history knows', () => {
    expect(inferTaskKind('i2v-1', 'video_translate')).toBe('video_translate');
  });

  it('uses the provider prefixes', () => {
    expect(inferTaskKind('i2is-abc')).toBe('image_generate');
    expect(inferTaskKind('I2V-abc')).toBe('image_to_video');
    expect(inferTaskKind('vt-abc')).toBe('video_translate');
  });

  it('falls back to image-to-video', () => {
    expect(inferTaskKind('3f1c-unknown')).toBe('image_to_video');
  });
});
