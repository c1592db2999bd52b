// @vitest-environment jsdom
// "Edit and re-run": the values a page puts in the form's draft (./prefill.ts), and what the form
// takes of them as it opens (its draft, merged over its defaults: ./form-draft.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { IMAGE_FORM_DEFAULTS } from '@/features/image-generate/form/image-form-model';
import { IMAGE_DRAFT_KEY } from '@/features/image-generate/form/image-generate-form';
import { VIDEO_FORM_DEFAULTS as TRANSLATE_DEFAULTS } from '@/features/video-translate/video-form-model';
import { VIDEO_DRAFT_KEY } from '@/features/video-translate/video-translate-form';
import { usableDraft, VIDEO_FORM_DEFAULTS } from '@/features/image-to-video/video-form-model';
import { I2V_DRAFT_KEY } from '@/features/image-to-video/image-to-video-form';
import { loadDraft, saveDraft } from './form-draft';
import { FORM_DRAFT_KEYS, fillForm } from './prefill';

afterEach(() => localStorage.clear());

describe('a form filled from a request', () => {
  it('writes the draft each form reads', () => {
    expect(FORM_DRAFT_KEYS).toEqual({
      image_generate: IMAGE_DRAFT_KEY,
      video_translate: VIDEO_DRAFT_KEY,
      image_to_video: I2V_DRAFT_KEY,
    });
  });

  it('takes the fields the form has, of the types it holds, with a list of URLs as rows, in place of the draft', () => {
    saveDraft(IMAGE_DRAFT_KEY, { ...IMAGE_FORM_DEFAULTS, prompt: 'my draft', image_quality: '4K' });
    expect(
      fillForm('image_generate', {
        prompt: 'A paper boat',
        reference_images: ['https://a.example/1.png', 7],
        generate_count: '4',
        callback_url: 'https://hooks.example/x',
      }),
    ).toBe('/');
    // The request's values over the defaults, never over the old draft (its 4K is not kept).
    expect(loadDraft(IMAGE_DRAFT_KEY, IMAGE_FORM_DEFAULTS)).toEqual({
      ...IMAGE_FORM_DEFAULTS,
      prompt: 'A paper boat',
      reference_images: [{ url: 'https://a.example/1.png' }],
    });
  });

  it('keeps a translation’s languages as a list', () => {
    expect(fillForm('video_translate', { target_languages: ['Japanese'], speaker_num: 2 })).toBe(
      '/translate',
    );
    expect(loadDraft(VIDEO_DRAFT_KEY, TRANSLATE_DEFAULTS)).toMatchObject({
      target_languages: ['Japanese'],
      speaker_num: 2,
    });
  });

  it('reads image to video’s mode from the model and the images', () => {
    const open = (params: Record<string, unknown>) => {
      expect(fillForm('image_to_video', params)).toBe('/image-to-video');
      return usableDraft(loadDraft(I2V_DRAFT_KEY, VIDEO_FORM_DEFAULTS));
    };
    expect(
      open({ model: 'V', image_url: 'https://a.example/s.png', duration: 6, generate_count: 2 }),
    ).toMatchObject({
      mode: 'start_frame',
      image_url: 'https://a.example/s.png',
      duration: '6',
      generate_count: 2,
    });
    expect(open({ model: 'V', reference_images: ['https://a.example/r.png'], duration: 8 })).toMatchObject({
      mode: 'reference',
      reference_images: [{ url: 'https://a.example/r.png' }],
    });
    expect(open({ model: 'KL', reference_images: ['https://a.example/r.png'], duration: 10 })).toMatchObject({
      mode: 'multi_reference',
      model: 'KL',
      duration: '10',
    });
  });
});
