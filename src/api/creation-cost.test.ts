// What a creation spends, as the limits count it and as the re-run's question says it.
import { describe, expect, it } from 'vitest';
import { costOf, costText } from './creation-cost';

describe('what a creation spends', () => {
  it('counts an image request by its images, from 1 to 8; anything else counts as one', () => {
    expect(costOf('image_generate', { generate_count: 8 })).toMatchObject({ tasks: 8, images: 8 });
    expect(costOf('image_generate', { generate_count: 9 })).toMatchObject({ tasks: 1, images: 1 });
    expect(costOf('image_generate', {})).toMatchObject({ tasks: 1, images: 1 });
  });

  it('counts image to video in seconds: count × duration, or the model’s default length', () => {
    expect(costOf('image_to_video', { generate_count: 4, duration: 6 })).toMatchObject({
      tasks: 4,
      videoSeconds: 24,
    });
    expect(costOf('image_to_video', { generate_count: 5, duration: 6 })).toMatchObject({
      tasks: 1,
      videoSeconds: 6,
    });
    expect(costOf('image_to_video', { model: 'KL' })).toMatchObject({ tasks: 1, videoSeconds: 5 });
    expect(costOf('image_to_video', {})).toMatchObject({ tasks: 1, videoSeconds: 8 });
  });

  it('counts a translation by its languages, its length unknown until made', () => {
    expect(costOf('video_translate', { target_languages: ['Japanese', 'French'] })).toEqual({
      tasks: 2,
      images: 0,
      videoSeconds: 0,
      videoUnknown: true,
    });
  });

  it('says it in words, one and many', () => {
    expect(costText(costOf('image_generate', { generate_count: 1 }))).toBe('1 task and 1 image');
    expect(costText(costOf('image_generate', { generate_count: 4 }))).toBe('4 tasks and 4 images');
    expect(costText(costOf('image_to_video', { generate_count: 2, duration: 8 }))).toBe(
      '2 tasks and 16 seconds of video',
    );
    expect(costText(costOf('video_translate', { target_languages: ['Japanese'] }))).toBe(
      '1 task, and the video minutes it makes once the service has made it',
    );
  });
});
