// @vitest-environment jsdom
// "Edit and re-run": what a form takes of a request's parameters, and the history state that
// carries them to the form once.
import { afterEach, describe, expect, it } from 'vitest';
import { IMAGE_FORM_DEFAULTS } from '@/features/image-generate/form/image-form-model';
import { VIDEO_FORM_DEFAULTS as TRANSLATE_DEFAULTS } from '@/features/video-translate/video-form-model';
import { videoValuesFromRequest } from '@/features/image-to-video/video-form-model';
import { forgetPrefill, prefillState, readPrefill, valuesFromParams } from './prefill';

afterEach(() => history.replaceState(null, ''));

describe('a form’s values from a request it sent', () => {
  it('takes the fields the form has, of the type it holds, and makes rows of a list of URLs', () => {
    const values = valuesFromParams(IMAGE_FORM_DEFAULTS, {
      prompt: 'A paper boat',
      reference_images: ['https://a.example/1.png', 7],
      generate_count: '4',
      callback_url: 'https://hooks.example/x',
    });
    expect(values).toEqual({
      prompt: 'A paper boat',
      reference_images: [{ url: 'https://a.example/1.png' }],
    });
  });

  it('keeps a translation’s languages as a list', () => {
    expect(
      valuesFromParams(TRANSLATE_DEFAULTS, { target_languages: ['Japanese'], speaker_num: 2 }, [
        'target_languages',
      ]),
    ).toEqual({ target_languages: ['Japanese'], speaker_num: 2 });
  });

  it('reads image to video’s mode from the model and the images', () => {
    const start = videoValuesFromRequest({
      model: 'V',
      prompt: 'Waves',
      image_url: 'https://a.example/s.png',
      duration: 6,
      generate_count: 2,
    });
    expect(start).toMatchObject({
      mode: 'start_frame',
      image_url: 'https://a.example/s.png',
      duration: '6',
      generate_count: 2,
    });
    expect(
      videoValuesFromRequest({ model: 'V', reference_images: ['https://a.example/r.png'], duration: 8 }),
    ).toMatchObject({ mode: 'reference', reference_images: [{ url: 'https://a.example/r.png' }] });
    expect(
      videoValuesFromRequest({ model: 'KL', reference_images: ['https://a.example/r.png'], duration: 10 }),
    ).toMatchObject({ mode: 'multi_reference', model: 'KL', duration: '10' });
  });
});

describe('the history state that carries them', () => {
  it('is read by the form of its kind only, and forgotten once taken', () => {
    history.replaceState({ other: 1, ...prefillState('image_generate', { prompt: 'Boat' }) }, '');
    expect(readPrefill('video_translate')).toBeUndefined();
    expect(readPrefill('image_generate')).toEqual({ prompt: 'Boat' });
    forgetPrefill();
    expect(readPrefill('image_generate')).toBeUndefined();
    expect(history.state).toEqual({ other: 1 });
  });

  it('takes nothing from a state that is not one', () => {
    history.replaceState({ prefill: { kind: 'image_generate', params: ['x'] } }, '');
    expect(readPrefill('image_generate')).toBeUndefined();
    history.replaceState('text', '');
    expect(readPrefill('image_generate')).toBeUndefined();
  });
});
