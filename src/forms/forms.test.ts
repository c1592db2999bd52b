// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/api/errors';
import { clearDraft, loadDraft, saveDraft } from './form-draft';
import { fieldForServerError, serverFieldMessage } from './form-errors';

describe('drafts', () => {
  beforeEach(() => localStorage.clear());
  const defaults = { prompt: '', count: 1, rows: [] as string[], on: false };

  it('merges a stored draft key by key, keeping defaults for missing or mistyped keys', () => {
    saveDraft('t', { prompt: 'hi', count: null, rows: 'nope', on: true, extra: 1 });
    expect(loadDraft('t', defaults)).toEqual({ prompt: 'hi', count: 1, rows: [], on: true });
  });

  it('returns the defaults without a draft, with a corrupt one, and after clearDraft', () => {
    expect(loadDraft('t', defaults)).toEqual(defaults);
    localStorage.setItem('media-console:draft:t', '{oops');
    expect(loadDraft('t', defaults)).toEqual(defaults);
    saveDraft('t', { prompt: 'x' });
    clearDraft('t');
    expect(loadDraft('t', defaults)).toEqual(defaults);
  });
});

describe('server error placement', () => {
  const fields = ['prompt', 'generate_count'] as const;
  it('places 100001/100002 on the field the msg names', () => {
    const bounds = new ApiError({
      kind: 'bounds',
      httpStatus: 400,
      code: 100002,
      msg: 'generate_count should be [1,8], current: 9',
    });
    expect(fieldForServerError(bounds, fields)).toBe('generate_count');
    expect(serverFieldMessage(bounds)).toBe(
      'The service refused this value: generate_count should be [1,8], current: 9. Allowed: 1 to 8.',
    );
    const validation = new ApiError({
      kind: 'validation',
      httpStatus: 400,
      code: 100001,
      msg: 'prompt: must be at most 1000 characters',
    });
    expect(fieldForServerError(validation, fields)).toBe('prompt');
  });

  it('leaves other errors, and fields the form does not have, to the banner', () => {
    expect(
      fieldForServerError(new ApiError({ kind: 'task_creation', code: 530003, msg: 'prompt bad' }), fields),
    ).toBeUndefined();
    expect(
      fieldForServerError(
        new ApiError({ kind: 'validation', code: 100001, msg: 'video_url: invalid' }),
        fields,
      ),
    ).toBeUndefined();
    expect(
      fieldForServerError(
        new ApiError({ kind: 'validation', code: 100001, msg: 'invalid character x' }),
        fields,
      ),
    ).toBeUndefined();
  });
});
