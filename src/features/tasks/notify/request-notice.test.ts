import { describe, expect, it } from 'vitest';
import { requestNotice } from './request-notice';

const request = (kind: string, statuses: string[], title = 'Calm ocean at sunset') => ({
  id: 'req-i2is-1',
  kind,
  title,
  tasks: statuses.map((status) => ({ status })),
});

describe('requestNotice', () => {
  it('says nothing while any task of the request is still running, or it has none', () => {
    expect(requestNotice(request('image_generate', ['SUCCEEDED', 'GENERATING']))).toBeUndefined();
    expect(requestNotice(request('image_generate', ['PENDING']))).toBeUndefined();
    expect(requestNotice(request('image_generate', []))).toBeUndefined();
  });

  it('counts what succeeded and what failed, in the kind’s words', () => {
    expect(requestNotice(request('image_generate', ['SUCCEEDED']))).toEqual({
      title: 'Your image is ready',
      body: 'Calm ocean at sunset',
      tag: 'request:req-i2is-1',
    });
    expect(
      requestNotice(request('image_generate', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']))?.title,
    ).toBe('Your 4 images are ready');
    expect(requestNotice(request('video_translate', ['SUCCEEDED', 'FAILED', 'SUCCEEDED']))?.title).toBe(
      '2 of 3 translations ready, 1 failed',
    );
    expect(requestNotice(request('image_to_video', ['FAILED']))?.title).toBe('Your video failed');
    expect(requestNotice(request('image_to_video', ['FAILED', 'FAILED']))?.title).toBe(
      'Your 2 videos failed',
    );
    expect(requestNotice(request('something_new', ['SUCCEEDED', 'SUCCEEDED']))?.title).toBe(
      'Your 2 tasks are ready',
    );
  });
});
