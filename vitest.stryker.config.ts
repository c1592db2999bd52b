// The Vitest set-up StrykerJS runs (stryker.config.json): the project's own, with only the server's
// projects (`server` and `server-isolated`), since only server/ is mutated. The Stryker runner has
// no option to pick a project, so the others are left out here.
//
// STRYKER_TESTS (comma-separated globs) narrows the test files for a quick run on one module:
//   STRYKER_TESTS=server/http/body-limits.test.ts npm run mutation -- --mutate server/http/body-limits.ts
// Without it every server test related to a mutated file runs (Vitest's related mode), as a full
// run must: a module's mutants are often killed by tests far from it.
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import base from './vitest.config';

/**
 * The files on a real PostgreSQL last: Stryker stops a mutant's run at its first failing test, so a
 * mutant the quick PGlite files kill never waits for the tens of seconds of a `*-postgres` file.
 * (Vitest's own order puts the slowest file first.)
 */
class QuickFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const onPostgres = (file: TestSpecification) => (/postgres\.test\.ts$/.test(file.moduleId) ? 1 : 0);
    return (await super.sort(files)).sort((a, b) => onPostgres(a) - onPostgres(b));
  }
}

const only = process.env.STRYKER_TESTS?.split(',').filter(Boolean);

const projects = (base.test?.projects ?? [])
  .filter(
    (project): project is TestProjectInlineConfiguration =>
      typeof project === 'object' && 'test' in project && Boolean(project.test?.name?.startsWith('server')),
  )
  .map((project) =>
    only
      ? {
          ...project,
          test: {
            ...project.test,
            include: (project.test?.include?.length ? only : []).filter((file) =>
              // A file goes to the project that would have run it: isolated or shared.
              project.test?.name === 'server-isolated'
                ? (project.test.include ?? []).includes(file)
                : !(project.test?.exclude ?? []).includes(file),
            ),
          },
        }
      : project,
  );

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects,
    sequence: { ...base.test?.sequence, sequencer: QuickFilesFirst },
    // Stryker's runner runs one test file at a time: a file's set-up may then remove the databases
    // an earlier file left (server/testing/vitest-setup.ts).
    env: { ...base.test?.env, TEST_FILES_ONE_AT_A_TIME: '1' },
  },
});
