// Migrations are frozen text: what already ran on a database never changes under it. So they import
// no live code (a renamed constant would silently change a migration's SQL), and the values they
// spell out stay equal to the live ones the rest of the server uses.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CALLBACK_ID_LOCK, CALLBACKS_CHANNEL } from '../callbacks/store';
import { TASKS_CHANNEL } from '../tasks/recorder';
import { COMMIT_CALLBACKS_FUNCTION } from './commit-callbacks';

const importsOf = (file: string) =>
  [...readFileSync(new URL(file, import.meta.url), 'utf8').matchAll(/^import[^;]*?from '([^']+)'/gms)].map(
    (match) => match[1],
  );

describe('migrations', () => {
  it('import only kysely and the frozen function text, no live code', () => {
    expect(importsOf('./migrations.ts').filter((from) => !from?.startsWith('kysely'))).toEqual([
      './commit-callbacks',
    ]);
    expect(importsOf('./commit-callbacks.ts')).toEqual([]);
  });

  it('spell out the lock and the channels the live code uses', () => {
    expect(COMMIT_CALLBACKS_FUNCTION).toContain(`pg_advisory_xact_lock(${CALLBACK_ID_LOCK});`);
    expect(COMMIT_CALLBACKS_FUNCTION).toContain(`pg_notify('${CALLBACKS_CHANNEL}',`);
    expect(COMMIT_CALLBACKS_FUNCTION).toContain(`pg_notify('${TASKS_CHANNEL}',`);
  });
});
