// A request's "Download all" (server/tasks/request-zip.ts): its results as one zip named after it,
// for anyone who may read the request, viewers too.
import { describe, expect, it } from 'vitest';
import { accessRule } from '../identity/access';
import { useTestNodeApp, TEST_ORIGIN } from '../testing/test-node-app';
import { zipEntries } from '../testing/unzip';
import { requestZipStem } from './request-zip';

const server = useTestNodeApp('request-zip-test');

async function entryNames(bytes: Buffer): Promise<string[]> {
  return [...(await zipEntries(bytes)).keys()];
}

describe('GET /__console/requests/<id>/zip', () => {
  it('is every result of the request, named after it, for a viewer too', async () => {
    const created = await server.postJsonAs('Ana', '/v1/video_translate', {
      video_url: `${TEST_ORIGIN}/emulator/samples/video.mp4`,
      target_languages: ['Japanese', 'German'],
      name: 'All-hands recap',
    });
    const ids = ((await created.json()) as { data: { task_id: string }[] }).data.map((t) => t.task_id);
    for (const id of ids) await server.requestAs('Ana', `/v1/video_translate/${id}`);
    expect(accessRule('GET', `/__console/requests/req-${ids[0]}/zip`)?.need).toBe('viewer');
    const response = await server.requestAs('Vi', `/__console/requests/req-${ids[0]}/zip`, {}, 'viewer');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain('All-hands recap.zip');
    expect((await entryNames(Buffer.from(await response.arrayBuffer()))).sort()).toEqual([
      'German - All-hands recap.mp4',
      'Japanese - All-hands recap.mp4',
    ]);
  });

  it('answers 404 with a reason for a request the record does not hold', async () => {
    const response = await server.requestAs('Vi', '/__console/requests/req-nothing/zip', {}, 'viewer');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ msg: 'This console has no record of that request' });
  });

  it('names it after the title, made a file name and cut at 80 characters, or "Request"', () => {
    expect(requestZipStem('Harbour at dawn')).toBe('Harbour at dawn');
    expect(requestZipStem(null)).toBe('Request');
    expect(requestZipStem(' / ')).toBe('Request');
    expect(requestZipStem('a/b')).toBe('a b');
    const exactly = 'x'.repeat(80);
    expect(requestZipStem(exactly)).toBe(exactly);
    expect(requestZipStem(`${exactly}y`)).toBe(exactly);
  });
});
