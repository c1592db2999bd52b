// A callback's idempotency key is stored with it: a later delivery of the same callback must make
// the same key, whatever its key order, or the log would keep it twice. So its form is pinned here.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CallbackBody } from '../../src/api/schemas';
import { videoTranslateCallback } from '../testing/callback-fixtures';
import { callbackKey } from './log-entry';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('callbackKey', () => {
  it('is the task id, the status and a hash of the body with its keys sorted at every depth', () => {
    const body = {
      task_type: 'image_generate',
      code: 0,
      data: {
        task_id: 't-1',
        status: 'FAILED',
        list: [2, 'a', null, { b: 2, a: [true, undefined] }],
        'quote"': 'x',
        nothing: null,
      },
    } as unknown as CallbackBody;
    const canonical =
      '{"code":0,"data":{"list":[2,"a",null,{"a":[true,null],"b":2}],"nothing":null,"quote\\"":"x",' +
      '"status":"FAILED","task_id":"t-1"},"task_type":"image_generate"}';
    expect(callbackKey(body)).toBe(`t-1|FAILED|${sha256(canonical)}`);
  });

  it('stays the key already stored for a callback', () => {
    expect(callbackKey(videoTranslateCallback as CallbackBody)).toBe(
      'vt-1001|SUCCEEDED|ecd8e59087ef5fe75a0c9e57df919fc88d23e5c5518d5dcb11183cd3fa20503e',
    );
  });
});
