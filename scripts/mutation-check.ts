// A small mutation check of the server's boundaries (docs/testing.md, "Mutation check"): each mutant
// below is a one-line bug that once survived the unit tests. The script puts one mutant in at a
// time, runs the test files that should catch it, and puts the code back. Every mutant must be
// killed (its tests fail); a survivor means a boundary that no test holds.
//
//   npx tsx scripts/mutation-check.ts            every mutant (a few minutes)
//   npx tsx scripts/mutation-check.ts secret     only the mutants whose name contains "secret"
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

interface Mutant {
  name: string;
  file: string;
  /** Text that must occur in `file` (every occurrence is replaced). */
  from: string;
  to: string;
  /** The test files that must fail with the mutant in. */
  tests: string[];
}

const MUTANTS: Mutant[] = [
  {
    name: 'upload exactly at the size limit refused',
    file: 'server/emulator/uploads.ts',
    from: 'if (size > limitFor(type)) {',
    to: 'if (size >= limitFor(type)) {',
    tests: ['server/emulator/uploads.test.ts'],
  },
  {
    name: 'proxied upload stream exactly at the size limit refused',
    file: 'server/proxy/upload-stream.ts',
    from: 'if (seen <= maxBytes && !refusal) return done(null, chunk);',
    to: 'if (seen < maxBytes && !refusal) return done(null, chunk);',
    tests: ['server/proxy/upload-stream.test.ts'],
  },
  {
    name: 'streaming body limit off by one',
    file: 'server/callbacks/read-body.ts',
    from: 'if (size > maxBytes) {',
    to: 'if (size >= maxBytes) {',
    tests: ['server/callbacks/read-body.test.ts'],
  },
  {
    name: 'declared body length off by one',
    file: 'server/callbacks/read-body.ts',
    from: "Number(c.req.header('content-length')) > maxBytes",
    to: "Number(c.req.header('content-length')) >= maxBytes",
    tests: ['server/callbacks/read-body.test.ts'],
  },
  {
    name: 'callback secret compared by length only',
    file: 'server/callbacks/secret.ts',
    from: 'return a.length === b.length && timingSafeEqual(a, b);',
    to: 'return a.length === b.length;',
    tests: ['server/callbacks/secret.test.ts'],
  },
  {
    name: 'an extra next-page cursor when rows equal the limit',
    file: 'server/tasks/list.ts',
    from: 'rows.length > page.limit && last',
    to: 'rows.length >= page.limit && last',
    tests: ['server/tasks/cursor.test.ts'],
  },
  {
    name: 'no cap on the tasks page size',
    file: 'server/tasks/routes.ts',
    from: "Math.min(Math.max(Number(c.req.query('limit')) || 50, 1), PAGE_SIZE_MAX)",
    to: "Math.max(Number(c.req.query('limit')) || 50, 1)",
    tests: ['server/tasks/request-bounds.test.ts'],
  },
  {
    name: 'session expiry not checked',
    file: 'server/auth/auth.ts',
    from: '!(expiresAt > now())',
    to: '!(expiresAt > 0)',
    tests: ['server/auth/auth-session-expiry.test.ts'],
  },
  {
    name: 'the 80-character name cut removed',
    file: 'server/tasks/record-traffic.ts',
    from: '.slice(0, max)',
    to: '',
    tests: ['server/tasks/request-bounds.test.ts'],
  },
  {
    name: "the live merge's tie-break reversed",
    file: 'src/features/tasks/team/team-merge.ts',
    from: '(a.createdAt === b.createdAt && a.id > b.id)',
    to: '(a.createdAt === b.createdAt && a.id < b.id)',
    tests: ['src/features/tasks/team/team-merge.test.ts'],
  },
  {
    name: 'an older copy of a task takes it out of the tab its newer copy belongs to',
    file: 'src/features/tasks/team/team-merge.ts',
    from: 'if (old.updatedAt > task.updatedAt) return page;',
    to: 'if (matches && old.updatedAt > task.updatedAt) return page;',
    tests: ['src/features/tasks/team/team-merge.test.ts'],
  },
  {
    name: 'the offline view searches the status instead of the creator',
    file: 'src/features/tasks/shared/task-view.ts',
    from: "creator: record.source === 'created' ? me : undefined",
    to: 'creator: record.status',
    tests: ['src/api/task-view/task-view-rule.test.ts'],
  },
  {
    name: "the server's search takes % and _ as wildcards",
    file: 'src/api/task-view/task-view-rule.ts',
    from: '(/[\\\\%_]/g',
    to: '(/[\\\\]/g',
    tests: ['src/api/task-view/task-view-rule.test.ts'],
  },
  {
    name: 'a target-language list item that is not a string accepted',
    file: 'src/api/schemas.ts',
    from: ".array(z.string().check(z.trim(), z.minLength(1, { error: 'A language cannot be empty' })))",
    to: '.array(z.any())',
    tests: ['server/emulator/video-translate-routes.test.ts'],
  },
];

function runTests(files: string[]): boolean {
  const result = spawnSync('npx', ['vitest', 'run', '--reporter=dot', ...files], {
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  return result.status === 0;
}

const only = process.argv[2];
const chosen = MUTANTS.filter((mutant) => !only || mutant.name.includes(only));
let survivors = 0;
for (const mutant of chosen) {
  const original = readFileSync(mutant.file, 'utf8');
  if (!original.includes(mutant.from)) {
    console.log(
      `MISSING   ${mutant.name}: "${mutant.from}" is no longer in ${mutant.file}; update the mutant`,
    );
    survivors++;
    continue;
  }
  const restore = () => writeFileSync(mutant.file, original);
  process.once('SIGINT', () => {
    restore();
    process.exit(130);
  });
  writeFileSync(mutant.file, original.split(mutant.from).join(mutant.to));
  let passed: boolean;
  try {
    passed = runTests(mutant.tests);
  } finally {
    restore();
  }
  if (passed) survivors++;
  console.log(`${passed ? 'SURVIVED' : 'killed  '}  ${mutant.name} (${mutant.tests.join(', ')})`);
}
console.log(`\n${chosen.length - survivors} of ${chosen.length} mutants killed`);
process.exit(survivors ? 1 : 0);
