// What a re-run sends, and a failed tile's Try again: the task's request, a translation's one
// language, and one task for Try again.
import { describe, expect, it } from 'vitest';
import { rerunParams, retryParams } from './rerun-params';

const translation = {
  kind: 'video_translate' as const,
  language: 'German',
  params: { video_url: 'https://v.example/a.mp4', target_languages: ['Japanese', 'German'] },
};

describe('what a re-run sends', () => {
  it('is the request, with a translation task’s one language', () => {
    expect(rerunParams(translation)).toEqual({
      video_url: 'https://v.example/a.mp4',
      target_languages: ['German'],
    });
    const images = { kind: 'image_generate' as const, params: { prompt: 'Boat', generate_count: 4 } };
    expect(rerunParams(images)).toEqual({ prompt: 'Boat', generate_count: 4 });
    expect(rerunParams({ kind: 'image_generate', params: ['not', 'a', 'body'] })).toEqual({});
  });

  it('asks for one task when a failed tile tries again', () => {
    expect(retryParams({ kind: 'image_generate', params: { prompt: 'Boat', generate_count: 4 } })).toEqual({
      prompt: 'Boat',
      generate_count: 1,
    });
    expect(retryParams({ kind: 'image_to_video', params: { prompt: 'Waves', generate_count: 3 } })).toEqual({
      prompt: 'Waves',
      generate_count: 1,
    });
    expect(retryParams(translation).target_languages).toEqual(['German']);
  });
});
