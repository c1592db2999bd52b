import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makePglite, needsInitdb } from './make-pglite';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'make-pglite-'));
  dirs.push(dir);
  return dir;
}

/** The processes whose command line names `text`. */
function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !condition();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('needsInitdb', () => {
  it('is true for a missing folder and an empty one, false once PG_VERSION is there', () => {
    const path = join(folder(), 'pglite');
    expect(needsInitdb(path)).toBe(true);
    mkdirSync(path);
    expect(needsInitdb(path)).toBe(true);
    writeFileSync(join(path, 'PG_VERSION'), '17\n');
    expect(needsInitdb(path)).toBe(false);
  });

  it('refuses a folder with files but no database, rather than clearing it or starting on it', () => {
    const path = join(folder(), 'pglite');
    mkdirSync(path);
    writeFileSync(join(path, 'notes.txt'), 'mine');
    expect(() => needsInitdb(path)).toThrow(/holds files but no database \(no PG_VERSION\)/);
    expect(readdirSync(path)).toEqual(['notes.txt']);
  });
});

// Making a database that works, with a stale half-made one beside it, is database.test.ts's "makes a
// new database in an empty DATA_DIR" (one initdb of seconds serves both).
describe('makePglite', { timeout: 60_000 }, () => {
  it('reports a failed initdb with its cause and leaves neither a database nor a half-made folder', async () => {
    const dir = folder();
    const path = join(dir, 'pglite');
    await expect(makePglite(path, ['--no-such-option'])).rejects.toThrow(
      /making the database failed: [^]*PGlite failed to initialize/,
    );
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(path)).toBe(false);
  });

  it('ends the initdb process, unfinished, when the console making the database is killed', async () => {
    const dir = folder();
    const module = fileURLToPath(new URL('./make-pglite.ts', import.meta.url));
    const program = `const { makePglite } = await import(${JSON.stringify(module)}); await makePglite(process.argv[1], []);`;
    const maker = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', program, join(dir, 'pglite')],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => maker.once('exit', resolve));
    // The child's command line names the folder it makes the database in: `.pglite-making-<pid>`.
    const making = `${dir}/.pglite-making-${maker.pid}`;
    await until(() => processesNaming(making).length > 0, 'the initdb process');
    // Held still until its console is gone, so it cannot finish first, however fast the machine.
    const [child] = processesNaming(making);
    process.kill(child!, 'SIGSTOP');
    maker.kill('SIGKILL');
    await exited;
    process.kill(child!, 'SIGCONT');
    await until(() => processesNaming(making).length === 0, 'the initdb process to end');
    // Left running, it would have made the whole database in the folder the next start clears.
    expect(existsSync(join(making, 'PG_VERSION'))).toBe(false);
  });
});
