// The import rules of eslint.config.js are written per folder: every folder of server/ and every
// feature of src/features must have its entry, a folder without one fails lint, and the tables
// name no folder that is gone.
import { ESLint } from 'eslint';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FEATURES, SERVER_LAYERS } from '../eslint.config.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const foldersOf = (path: string) =>
  readdirSync(new URL(`../${path}`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** The messages ESLint gives a file at `path` (it need not exist) holding `text`. */
async function lint(path: string, text = 'export const x = 1;\n') {
  const [result] = await new ESLint({ cwd: root }).lintText(text, { filePath: `${root}${path}` });
  return (result?.messages ?? []).map((message) => message.message);
}

describe('the import rules (eslint.config.js)', () => {
  it('list every server folder and every feature, and nothing else', () => {
    expect(Object.keys(SERVER_LAYERS).sort()).toEqual(
      foldersOf('server').filter((name) => name !== 'testing'),
    );
    expect([...FEATURES].sort()).toEqual(foldersOf('src/features'));
  });

  it('fail lint on a file of a server folder or a feature that is not listed', async () => {
    expect(await lint('server/not-listed/a.ts')).toEqual([
      expect.stringMatching(/^This folder of server\/ is not in SERVER_LAYERS/),
    ]);
    expect(await lint('src/features/not-listed/a.ts')).toEqual([
      expect.stringMatching(/^This folder of src\/features\/ is not in FEATURES/),
    ]);
    expect(await lint('server/tasks/a.ts')).toEqual([]);
    expect(await lint('src/features/insights/a.ts')).toEqual([]);
  });

  it('hold a listed folder to its entry', async () => {
    expect(
      await lint('server/http/a.ts', "import { x } from '../db/database';\nexport const y = x;\n"),
    ).toEqual([expect.stringMatching(/server\/http may import no other server folder/)]);
    expect(
      await lint('server/preview/a.ts', "import { x } from '../proxy/proxy';\nexport const y = x;\n"),
    ).toEqual([]);
  });
});

describe('the length rule for server functions (eslint.config.js)', () => {
  /** A function of `lines` lines in all, its signature and closing brace counted. */
  const functionOf = (lines: number) =>
    [
      'export function long(): number {',
      '  let n = 0;',
      ...Array.from({ length: lines - 4 }, (_, i) => `  n += ${i};`),
      '  return n;',
      '}',
      '',
    ].join('\n');

  it('passes a function of exactly 100 lines and fails one of 101, tests exempt', async () => {
    expect(await lint('server/tasks/a.ts', functionOf(100))).toEqual([]);
    expect(await lint('server/tasks/a.ts', functionOf(101))).toEqual([
      expect.stringMatching(/has too many lines \(101\)\. Maximum allowed is 100/),
    ]);
    expect(await lint('server/tasks/a.test.ts', functionOf(101))).toEqual([]);
  });
});
