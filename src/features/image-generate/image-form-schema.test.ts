import { describe, expect, it } from 'vitest';
import { IMAGE_FORM_DEFAULTS, IMAGE_FORM_FIELDS, toImageRequest } from './form/image-form-model';
import { urlExtension } from './form/image-url-format';
import { imageFormSchema } from './image-form-schema';

const valid = { ...IMAGE_FORM_DEFAULTS, prompt: 'a cat' };
const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://example.com/${i}.png` }));

describe('imageFormSchema', () => {
  it('accepts 5 reference images and refuses 6', () => {
    expect(imageFormSchema.safeParse({ ...valid, reference_images: rows(5) }).success).toBe(true);
    const six = imageFormSchema.safeParse({ ...valid, reference_images: rows(6) });
    expect(six.success).toBe(false);
    expect(six.error?.issues[0]).toMatchObject({ path: ['reference_images'] });
  });

  it.each([
    [0, false],
    [1, true],
    [8, true],
    [9, false],
    [1.5, false],
    [Number.NaN, false],
  ])('generate_count %d → %s', (count, ok) => {
    expect(imageFormSchema.safeParse({ ...valid, generate_count: count }).success).toBe(ok);
  });

  it('counts the prompt after trimming, as it is sent', () => {
    expect(imageFormSchema.safeParse({ ...valid, prompt: ` ${'a'.repeat(1000)} ` }).success).toBe(true);
    expect(imageFormSchema.safeParse({ ...valid, prompt: 'a'.repeat(1001) }).success).toBe(false);
    expect(imageFormSchema.safeParse({ ...valid, prompt: '   ' }).success).toBe(false);
  });
});

describe('urlExtension', () => {
  it.each([
    ['https://x.test/a/b.PNG?x=1', 'png'],
    ['https://x.test/a/b', undefined],
    ['https://x.test/', undefined],
    ['https://x.test/img.jpeg#frag', 'jpeg'],
    ['not a url', undefined],
  ])('%s → %s', (url, ext) => expect(urlExtension(url)).toBe(ext));
});

describe('toImageRequest', () => {
  it('drops blank rows and omits reference_images when none is left', () => {
    const parsed = imageFormSchema.parse({
      ...valid,
      reference_images: [{ url: '' }, { url: ' ' }].slice(0, 1),
    });
    expect(toImageRequest(parsed)).toEqual({
      prompt: 'a cat',
      module: 'std',
      generate_count: 1,
      image_quality: '2K',
      image_ratio: '9:16',
    });
  });
});

describe('IMAGE_FORM_FIELDS', () => {
  it('are the fields of the form, in request order', () => {
    expect([...IMAGE_FORM_FIELDS]).toEqual(Object.keys(imageFormSchema.shape));
  });
});
