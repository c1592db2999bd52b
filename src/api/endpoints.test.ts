import { describe, expect, it } from 'vitest';
import { API_PATHS, toCurl } from './endpoints';

describe('toCurl', () => {
  it('uses $API_TOKEN and $API_BASE_URL, never a real token', () => {
    const curl = toCurl('GET', API_PATHS.imageToVideoTask('i2v-1'));
    expect(curl).toBe(
      'curl -X GET "$API_BASE_URL/v1/image_to_video/i2v-1" \\\n  -H "Authorization: Bearer $API_TOKEN"',
    );
  });

  it('adds the JSON body, escaping single quotes for the shell', () => {
    const curl = toCurl('POST', API_PATHS.imageGenerate, { prompt: "a fox's den", generate_count: 2 });
    expect(curl).toContain('-H "Authorization: Bearer $API_TOKEN"');
    expect(curl).toContain('-H "Content-Type: application/json"');
    expect(curl).toContain(`-d '{"prompt":"a fox'\\''s den","generate_count":2}'`);
    expect(curl.split(' \\\n')).toHaveLength(4);
  });

  it('never contains a bearer value other than the variable', () => {
    const curl = toCurl('POST', API_PATHS.videoTranslate, {
      target_languages: ['English'],
      video_url: 'https://x/v.mp4',
    });
    expect(curl.match(/Bearer (\S+)"/)?.[1]).toBe('$API_TOKEN');
  });
});
