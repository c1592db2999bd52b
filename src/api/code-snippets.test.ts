// The Python and JavaScript snippets are run for real against a local server: each must send the
// method, the path (an odd id kept inside its segment), the token from API_TOKEN and the body, and
// print the answer. Python is skipped where there is no python3.
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJavaScript, toPython } from './code-snippets';
import { API_PATHS } from './paths';

const run = promisify(execFile);
const TOKEN = 'mct_snippet-test-token';
const hasPython = await run('python3', ['--version']).then(
  () => true,
  () => false,
);

interface Seen {
  method?: string;
  url?: string;
  authorization?: string;
  contentType?: string;
  body: string;
}
let server: Server;
let origin: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method,
        url: req.url,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 0, msg: 'ok', data: { answered: 'yes' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const env = () => ({ ...process.env, API_BASE_URL: origin, API_TOKEN: TOKEN });
const runners = {
  JavaScript: (code: string) =>
    run(process.execPath, ['--input-type=module', '-e', code], { env: env(), timeout: 20_000 }),
  Python: (code: string) => run('python3', ['-c', code], { env: env(), timeout: 20_000 }),
};
const makers = { JavaScript: toJavaScript, Python: toPython };

describe.each(['JavaScript', 'Python'] as const)('the %s snippet', (language) => {
  const make = makers[language];
  it.skipIf(language === 'Python' && !hasPython)(
    'sends the status query with the token and prints the answer',
    async () => {
      const path = API_PATHS.videoTranslateTask('vt-a/b?c "q\'');
      const { stdout } = await runners[language](make('GET', path));
      const request = seen.at(-1)!;
      expect(request).toMatchObject({ method: 'GET', url: path, authorization: `Bearer ${TOKEN}`, body: '' });
      expect(stdout).toContain('answered');
    },
  );

  it.skipIf(language === 'Python' && !hasPython)('sends a JSON body exactly', async () => {
    const body = {
      prompt: 'Calm "ocean" at sunset \u2014 été \u{1f30a}\n\'quoted\'',
      generate_count: 2,
      flag: true,
      none: null,
    };
    await runners[language](make('POST', API_PATHS.imageGenerate, body));
    const request = seen.at(-1)!;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/v1/image_generate',
      contentType: 'application/json',
    });
    expect(JSON.parse(request.body)).toEqual(body);
  });

  it('names the token and the address only as variables', () => {
    const code = make('GET', API_PATHS.imageGenerateTask('i2is-1'));
    expect(code).toContain('API_TOKEN');
    expect(code).toContain('API_BASE_URL');
    expect(code).not.toMatch(/mct_|sk-/);
  });
});
