// A translation asks for at most the languages the service offers: with a real service, its own
// list (GET /v1/video_translate/target_languages, through the proxy with the token), else the
// console's TARGET_LANGUAGES. Refused lists never reach the service.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TARGET_LANGUAGES } from '../../src/api/schemas';
import { asPerson } from '../testing/identity';
import { testNodeApp } from '../testing/test-node-app';

const server = testNodeApp('offered-languages-test');
afterEach(() => server.close());
afterAll(server.remove);

const OFFERED = ['English', 'Japanese', 'Swahili'];
let service: Server;
let serviceUrl = '';
let languagesAnswer: 'list' | 'down' = 'list';
const asked: string[] = [];
beforeAll(async () => {
  service = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    request.resume();
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (request.url === '/v1/video_translate/target_languages')
      return languagesAnswer === 'list'
        ? json(200, { code: 0, msg: 'ok', data: OFFERED })
        : json(503, { code: 503 });
    request.on('end', () => json(200, { code: 0, msg: 'ok', data: [] }));
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => service.close(resolve)));

const translate = (languages: string[]) =>
  server.request(
    '/v1/video_translate',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ video_url: 'https://example.com/v.mp4', target_languages: languages }),
    },
    asPerson('Bea', 'creator'),
  );
const creations = () => asked.filter((line) => line === 'POST /v1/video_translate').length;

describe("a translation's languages with a real service", () => {
  it("are capped at the service's own list: all of it is sent, one more is refused before the service", async () => {
    languagesAnswer = 'list';
    asked.length = 0;
    await server.open({ env: { API_BASE_URL: serviceUrl, API_TOKEN: 'offered-token' } });
    const tooMany = await translate([...OFFERED, 'Klingon']);
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { msg: string }).msg).toMatch('the service offers 3');
    expect(creations()).toBe(0);
    expect((await translate(OFFERED)).status).toBe(200);
    expect(creations()).toBe(1);
    // The list is asked for once, not per creation.
    await translate(['English']);
    expect(asked.filter((line) => line.endsWith('/target_languages'))).toHaveLength(1);
  });

  it("fall back to the console's list when the service cannot say", async () => {
    languagesAnswer = 'down';
    asked.length = 0;
    await server.open({ env: { API_BASE_URL: serviceUrl, API_TOKEN: 'offered-token' } });
    expect((await translate([...TARGET_LANGUAGES, 'Klingon'])).status).toBe(400);
    expect(creations()).toBe(0);
    expect((await translate([...TARGET_LANGUAGES])).status).toBe(200);
    expect(creations()).toBe(1);
  });
});
