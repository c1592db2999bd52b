// The hint rules on their own, on the shared PGlite without a server: what a callback's reply says
// of its task, what is written to the server's log (a sender must not flood it), and which links an
// unconfirmed callback may bring.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallbackBody } from '../../src/api/schemas';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { createTaskRecorder } from '../tasks/recorder';
import { createCallbackHints, throttledLog, withoutUntrustedLinks } from './hints';

const CDN = 'https://cdn.example.com';
const ORIGIN = 'https://console.example.com';

describe('throttledLog by default', () => {
  it('writes 20 lines in 60 s; the 60th second starts a new minute with the count of those held', () => {
    const lines: string[] = [];
    let time = 1_000;
    const log = throttledLog(
      (line) => lines.push(line),
      undefined,
      undefined,
      () => time,
    );
    for (let i = 0; i < 22; i++) log(`line ${i}`);
    expect(lines).toHaveLength(20);
    time += 59_999;
    log('still the first minute');
    expect(lines).toHaveLength(20);
    time += 1;
    log('the next minute');
    expect(lines.slice(20)).toEqual([
      '[callbacks] … and 3 more such lines in the last 60 s, not written one by one',
      'the next minute',
    ]);
    // A minute in which nothing was held says nothing more.
    time += 60_000;
    log('a quiet minute');
    expect(lines.slice(22)).toEqual(['a quiet minute']);
  });
});

describe('withoutUntrustedLinks', () => {
  it('keeps trusted http and https links (spaces around them too) and empty link fields', () => {
    const trusted = (url: URL) => url.origin === CDN || url.origin === 'http://cdn.example.com';
    const data = {
      video_url: `  ${CDN}/a.mp4 `,
      thumbnail_URL: 'http://cdn.example.com/a.jpg',
      caption_url: null,
      audio_url: undefined,
      image_url: '',
      url_note: 'not a link',
      status: 'SUCCEEDED',
    };
    expect(withoutUntrustedLinks(data, trusted)).toEqual({ data, dropped: [] });
  });

  it('drops a link anywhere (any case), another scheme, a link that does not parse, a non-text link', () => {
    const { data, dropped } = withoutUntrustedLinks(
      {
        extra: 'HTTPS://evil.example/x',
        note: ' ftp://cdn.example.com/x',
        ftp_url: 'ftp://cdn.example.com/x',
        broken_url: 'https://',
        count_url: 5,
        IMAGE_URL: 'cdn.example.com/p.png',
        words: 'see https://evil.example',
        status: 'SUCCEEDED',
      },
      (url) => url.hostname === 'cdn.example.com',
    );
    expect(dropped).toEqual(['extra', 'note', 'ftp_url', 'broken_url', 'count_url', 'IMAGE_URL']);
    expect(data).toEqual({ words: 'see https://evil.example', status: 'SUCCEEDED' });
  });
});

describe('createCallbackHints', () => {
  let lines: string[];
  let askSoon: ReturnType<typeof vi.fn<(id: string) => void>>;
  const hints = () =>
    createCallbackHints({
      database: testDatabase(),
      askSoon,
      trustedResultUrl: (url, origin) => origin === ORIGIN && url.origin === CDN,
      log: (line) => lines.push(line),
    });
  const callback = (id: string, data: Record<string, unknown> = {}) =>
    ({
      code: 0,
      msg: 'ok',
      task_type: 'image_generate',
      data: { task_id: id, status: 'SUCCEEDED', image_url: 'https://evil.example/p.png', ...data },
    }) as CallbackBody;
  const created = async (id: string) =>
    createTaskRecorder(testDatabase()).created('image_generate', { prompt: 'a fox' }, [{ id }], 'Ana');
  const follow = async (id: string) =>
    (await testDatabase()).db
      .selectFrom('task_follows')
      .selectAll()
      .where('task_id', '=', id)
      .executeTakeFirst();
  const task = async (id: string) =>
    (await testDatabase()).db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  const stopAsking = async (id: string, ended: 'unavailable' | 'not_found') =>
    (await testDatabase()).db
      .updateTable('task_follows')
      .set({ due_at: null, ended })
      .where('task_id', '=', id)
      .execute();

  beforeEach(async () => {
    await resetTestDatabase();
    lines = [];
    askSoon = vi.fn<(id: string) => void>();
  });

  it('logs an unknown task by its id, cut after 120 characters', async () => {
    const long = `t${'x'.repeat(120)}`;
    expect(await hints().received(callback('x'.repeat(120)), ORIGIN)).toBe('unknown');
    expect(await hints().received(callback(long), ORIGIN)).toBe('unknown');
    expect(lines).toEqual([
      `[callbacks] a SUCCEEDED callback names task "${'x'.repeat(120)}", which the team record does not know: kept in the log only`,
      `[callbacks] a SUCCEEDED callback names task "${long.slice(0, 120)}…", which the team record does not know: kept in the log only`,
    ]);
    expect(askSoon).not.toHaveBeenCalled();
  });

  it('never wakes a task the follower stopped asking about for another reason', async () => {
    await created('i2is-gone');
    await stopAsking('i2is-gone', 'not_found');
    expect(await hints().received(callback('i2is-gone'), ORIGIN)).toBe('checking');
    expect(await follow('i2is-gone')).toMatchObject({ due_at: null, ended: 'not_found' });
    expect(askSoon).toHaveBeenCalledWith('i2is-gone');
  });

  it('says what it kept of an unconfirmed callback, naming the links it left out', async () => {
    await created('i2is-u');
    await stopAsking('i2is-u', 'unavailable');
    const tell = hints();
    expect(await tell.received(callback('i2is-u'), ORIGIN)).toBe('unconfirmed');
    expect(await tell.received(callback('i2is-u', { image_url: `${CDN}/a.png` }), ORIGIN)).toBe(
      'unconfirmed',
    );
    expect(lines).toEqual([
      `[callbacks] task "i2is-u": no status query for image_generate on this backend; the callback's SUCCEEDED is kept as reported by a callback, unconfirmed (links not from a trusted origin left out: image_url)`,
      `[callbacks] task "i2is-u": no status query for image_generate on this backend; the callback's SUCCEEDED is kept as reported by a callback, unconfirmed`,
    ]);
    expect(await task('i2is-u')).toMatchObject({ status: 'SUCCEEDED', last_source: 'callback' });
    expect((await task('i2is-u'))!.result).toMatchObject({ image_url: `${CDN}/a.png` });
  });

  it('takes the latest callback when the follower stops asking, and only for a task the record holds', async () => {
    const { db } = await testDatabase();
    const store = (body: CallbackBody, key: string) =>
      db
        .insertInto('callbacks')
        .values({
          key,
          task_id: body.data.task_id,
          status: body.data.status,
          received_at: new Date(),
          body: JSON.stringify(body),
        })
        .execute();
    await created('i2is-n');
    await store(callback('i2is-n', { status: 'FAILED', error_message: 'first' }), 'a');
    await store(callback('i2is-n', { status: 'SUCCEEDED', image_url: `${CDN}/latest.png` }), 'b');
    await store(callback('i2is-unknown'), 'c');
    await hints().noStatusQuery('i2is-n', ORIGIN);
    await hints().noStatusQuery('i2is-unknown', ORIGIN);
    await hints().noStatusQuery('i2is-none', ORIGIN);
    expect(await task('i2is-n')).toMatchObject({ status: 'SUCCEEDED', last_source: 'callback' });
    expect((await task('i2is-n'))!.result).toMatchObject({ image_url: `${CDN}/latest.png` });
    expect(await task('i2is-unknown')).toBeUndefined();
    expect(lines).toHaveLength(1);
  });
});
