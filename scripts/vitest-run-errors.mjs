// A Vitest reporter for `npm test` (scripts/test-all.mjs): it writes down what fails a run without
// failing a test, which Vitest's JSON report leaves out: errors outside any test (an unhandled
// rejection, a worker that would not stop) and a file's own errors (a hook that timed out, an import
// that threw). CI shows only the tail of a log; test-all prints these there.
import { mkdirSync, writeFileSync } from 'node:fs';

const firstLines = (error) =>
  String(error?.stack || error?.message || error)
    .split('\n')
    .slice(0, 6)
    .join('\n');

export default class RunErrorsReporter {
  onTestRunEnd(testModules, unhandledErrors, reason) {
    // A file's own errors, and those of its describe blocks (a hook of theirs that failed: their
    // tests are then skipped, not failed).
    const files = testModules
      .map((module) => ({
        name: module.relativeModuleId ?? module.moduleId,
        errors: [
          ...module.errors(),
          ...[...module.children.allSuites()].flatMap((suite) => suite.errors()),
        ].map(firstLines),
      }))
      .filter((file) => file.errors.length > 0);
    mkdirSync('test-results', { recursive: true });
    writeFileSync(
      'test-results/vitest-run-errors.json',
      JSON.stringify({ reason, unhandled: unhandledErrors.map(firstLines), files }, null, 2),
    );
  }
}
