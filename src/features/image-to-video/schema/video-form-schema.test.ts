import { describe, expect, it } from 'vitest';
import {
  animateHref,
  closestVideoRatio,
  readAnimateSource,
} from '@/features/image-to-video/link/animate-link';
import {
  VIDEO_FORM_DEFAULTS,
  switchVideoForm,
  toVideoRequest,
  usableDraft,
} from '@/features/image-to-video/video-form-model';
import { videoFormSchema } from './video-form-schema';

const START = 'https://images.example.com/start.png';
const base = { ...VIDEO_FORM_DEFAULTS, prompt: 'x', image_url: START };

describe('switchVideoForm', () => {
  it('changes nothing and says nothing when every value stays valid', () => {
    expect(switchVideoForm(base, { model: 'V' })).toEqual({ values: base, change: '' });
    expect(switchVideoForm(base, { mode: 'start_frame' }).change).toBe('');
  });

  it.each([
    ['4', '5'],
    ['6', '5'],
    ['8', '10'],
  ])('moves %s s to the closest KL duration, %s s', (from, to) => {
    expect(switchVideoForm({ ...base, duration: from }, { model: 'KL' }).values.duration).toBe(to);
  });

  it.each([
    ['5', '6'],
    ['10', '8'],
  ])('moves %s s back to %s s with a start frame (ties to the longer)', (from, to) => {
    const kl = { ...base, model: 'KL' as const, mode: 'multi_reference' as const, duration: from };
    expect(switchVideoForm(kl, { mode: 'start_frame' }).values.duration).toBe(to);
  });

  it('takes reference images to 8 s, fixed', () => {
    const { values, change } = switchVideoForm({ ...base, duration: '4' }, { mode: 'reference' });
    expect(values.duration).toBe('8');
    expect(change).toContain('4 s is not available with model V with reference images: set to 8 s');
  });

  it('keeps too many reference images and says how many to remove', () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ url: `${START}?${i}` }));
    const kl = {
      ...base,
      model: 'KL' as const,
      mode: 'multi_reference' as const,
      duration: '5',
      reference_images: rows,
    };
    const { values, change } = switchVideoForm(kl, { mode: 'reference' });
    expect(values.reference_images).toHaveLength(5);
    expect(change).toContain('model V with reference images takes at most 3 reference images: remove 2');
  });

  it('makes the first reference image the start frame when there is none', () => {
    const kl = {
      ...base,
      image_url: '',
      model: 'KL' as const,
      mode: 'multi_reference' as const,
      duration: '5',
      reference_images: [{ url: START }],
    };
    // Model V with only references chosen by model: the reference mode, which needs no start frame.
    expect(switchVideoForm(kl, { model: 'V' }).values.mode).toBe('reference');
    const { values, change } = switchVideoForm(kl, { mode: 'start_frame' });
    expect(values.image_url).toBe(START);
    expect(change).toContain('reference image 1 is now the start frame');
  });
});

describe('the form schema is the request schema', () => {
  it('reports the request schema’s rules on the form’s fields', () => {
    const result = videoFormSchema.safeParse({ ...base, generate_count: 5 });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['generate_count']);
    const ok = videoFormSchema.safeParse(base);
    expect(ok.success).toBe(true);
    expect(toVideoRequest(base)).toEqual({
      model: 'V',
      prompt: 'x',
      image_url: START,
      aspect_ratio: '16:9',
      aspect_resolution: '720p',
      duration: 8,
      generate_audio: false,
      generate_count: 1,
    });
  });
});

describe('Animate links', () => {
  it.each([
    ['16:9', '16:9'],
    ['21:9', '16:9'],
    ['4:3', '16:9'],
    ['1:1', '9:16'],
    ['3:4', '9:16'],
    ['9:16', '9:16'],
    [undefined, '9:16'],
  ])('image ratio %s animates as %s', (ratio, video) => {
    expect(closestVideoRatio(ratio)).toBe(video);
  });

  it('carries the image, its task and the ratio, and reads them back', () => {
    const href = animateHref({ from: 'i2is-1', start: START, ratio: '16:9' });
    expect(href.startsWith('/image-to-video?')).toBe(true);
    expect(readAnimateSource(href.split('?')[1]!)).toEqual({ from: 'i2is-1', start: START, ratio: '16:9' });
    expect(readAnimateSource('from=x')).toBeUndefined();
    // The image's prompt rides along (when the video form can take it whole).
    const withPrompt = animateHref({ from: 'i2is-1', start: START, ratio: '9:16', prompt: 'A red bicycle' });
    expect(readAnimateSource(withPrompt.split('?')[1]!)).toMatchObject({ prompt: 'A red bicycle' });
    const long = animateHref({ from: 'i2is-1', start: START, ratio: '9:16', prompt: 'x'.repeat(1001) });
    expect(readAnimateSource(long.split('?')[1]!)?.prompt).toBeUndefined();
  });
});

describe('usableDraft', () => {
  it('replaces what an old or damaged draft holds with valid values, keeping the rest', () => {
    const damaged = {
      ...base,
      mode: 'slideshow',
      model: 'KL',
      aspect_ratio: '1:1',
      aspect_resolution: '8k',
      duration: 'long',
      reference_images: [{ url: START }, null, { url: 5 }],
    } as unknown as typeof base;
    expect(usableDraft(damaged)).toEqual({
      ...base,
      mode: 'start_frame',
      model: 'V',
      aspect_ratio: '16:9',
      aspect_resolution: '720p',
      duration: '8',
      reference_images: [{ url: START }],
    });
  });

  it('keeps a valid draft as it is', () => {
    expect(usableDraft(base)).toEqual(base);
  });
});
