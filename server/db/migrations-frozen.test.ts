// Migrations are frozen text: what already ran on a database never changes under it. So they import
// no live code (a renamed constant would silently change a migration's SQL), and the values they
// spell out stay equal to the live ones the rest of the server uses.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CALLBACK_ID_LOCK, CALLBACKS_CHANNEL } from '../callbacks/store';
import { DEFAULT_SECONDS } from '../limits/limits';
import { TASKS_CHANNEL } from '../tasks/recorder';
import { COMMIT_CALLBACKS_FUNCTION } from './commit-callbacks';
import { FAILURE_CODE, FAILURE_REASON } from './failure-sql';

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

  it("spell out the failure's code and reason, and image to video's default lengths, as the live code does", () => {
    const source = readFileSync(new URL('./migrations.ts', import.meta.url), 'utf8');
    const text = (raw: { compile: unknown }) =>
      (raw as unknown as { toOperationNode(): { sqlFragments: string[] } })
        .toOperationNode()
        .sqlFragments.join('');
    expect(source).toContain(`const FAILURE_CODE_0026 = \`${text(FAILURE_CODE)}\`;`);
    expect(source).toContain(`const FAILURE_REASON_0026 = \`${text(FAILURE_REASON)}\`;`);
    expect(source).toContain(
      `when kind = 'image_to_video' then case when params->>'model' = 'KL' then ${DEFAULT_SECONDS.KL} else ${DEFAULT_SECONDS.V} end`,
    );
  });
});
