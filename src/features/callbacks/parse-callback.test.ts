import { describe, expect, it } from 'vitest';
import { CALLBACK_EXAMPLES, parseCallbackText } from './parse-callback';

describe('parseCallbackText', () => {
  it.each(Object.entries(CALLBACK_EXAMPLES))(
    'accepts the documented %s form, unknown fields kept',
    (_type, example) => {
      const result = parseCallbackText(JSON.stringify({ ...example, extra: { trace: 1 } }));
      expect(result).toEqual({ ok: true, body: { ...example, extra: { trace: 1 } } });
    },
  );

  it.each([
    ['', 'Paste a callback body'],
    ['{"code": 0,', 'not valid JSON'],
    ['[1, 2]', 'JSON object'],
    ['{"code": 0, "task_type": "speech", "data": {}}', 'task_type must be one of'],
    [
      JSON.stringify({ ...CALLBACK_EXAMPLES.video_translate, data: { task_id: 'vt-1', status: 'DONE' } }),
      'data.status',
    ],
    [JSON.stringify({ ...CALLBACK_EXAMPLES.image_generate, code: 'zero' }), 'code'],
  ])('refuses %j with a message naming the problem', (text, message) => {
    const result = parseCallbackText(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(message);
  });
});
