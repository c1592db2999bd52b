// `npm test`: unit tests (Vitest), then end-to-end tests (Playwright, real Chromium), then one
// closing summary line that CI reads: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

mkdirSync('test-results', { recursive: true });
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(args, env = {}) {
  const result = spawnSync(npx, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const started = Date.now();
// A file an earlier, interrupted run left would pass for this run's.
rmSync('test-results/vitest-run-errors.json', { force: true });
const unitStatus = run([
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/vitest.json',
  '--reporter=./scripts/vitest-run-errors.mjs',
]);
const unit = readJson('test-results/vitest.json');
// Read before Playwright starts: it empties test-results/.
const unitRunErrors = readJson('test-results/vitest-run-errors.json');
const unitSeconds = Math.round((Date.now() - started) / 1000);
const e2eStatus = run(['playwright', 'test', '--reporter=list,json'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: 'test-results/playwright.json',
});
const e2e = readJson('test-results/playwright.json');
const e2eSeconds = Math.round((Date.now() - started) / 1000) - unitSeconds;

/** Every test with its duration in ms: Vitest's assertion results, Playwright's results per spec. */
function durations() {
  const fromUnit = (unit?.testResults ?? []).flatMap((file) =>
    file.assertionResults.map((test) => ({
      ms: test.duration ?? 0,
      name: `${file.name.replace(`${process.cwd()}/`, '')} > ${test.title}`,
    })),
  );
  const fromSuite = (suite) => [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.map((test) => ({
        ms: test.results.reduce((sum, result) => sum + result.duration, 0),
        name: `e2e/${spec.file} > ${spec.title}`,
      })),
    ),
    ...(suite.suites ?? []).flatMap(fromSuite),
  ];
  return [...fromUnit, ...(e2e?.suites ?? []).flatMap(fromSuite)];
}

// Where the time goes (docs/testing.md, "Timings").
console.log('\nThe 15 slowest tests:');
for (const { ms, name } of durations()
  .sort((a, b) => b.ms - a.ms)
  .slice(0, 15))
  console.log(`${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`);

// The failures again at the end, where a CI log's tail shows them, each with its first error line.
const failures = [
  ...(unit?.testResults ?? []).flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => ({
        name: `${file.name.replace(`${process.cwd()}/`, '')} > ${test.fullName ?? test.title}`,
        error: test.failureMessages?.[0],
      })),
  ),
  ...(e2e?.suites ?? []).flatMap(function failedIn(suite) {
    return [
      ...(suite.specs ?? []).flatMap((spec) =>
        spec.ok
          ? []
          : [
              {
                name: `e2e/${spec.file} > ${spec.title}`,
                error: spec.tests[0]?.results.at(-1)?.error?.message,
              },
            ],
      ),
      ...(suite.suites ?? []).flatMap(failedIn),
    ];
  }),
];
const unitPassed = unit?.numPassedTests ?? 0;
const unitFailed = unit ? unit.numFailedTests : 1;
const e2ePassed = e2e?.stats?.expected ?? 0;
const e2eFailed = e2e ? (e2e.stats.unexpected ?? 0) + (e2e.stats.flaky ?? 0) : 1;
const skipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0) + (e2e?.stats?.skipped ?? 0);

// What fails a run without failing a test: a file's hook or import, an error outside any test, a
// Playwright worker's teardown or the config. Without these a red run's tail said "0 failed".
const unitErrors = [
  ...(unitRunErrors?.files ?? []).flatMap((file) =>
    file.errors.map((error) => ({ name: `${file.name} (the file itself)`, error })),
  ),
  ...(unitRunErrors?.unhandled ?? []).map((error) => ({ name: 'Vitest, outside any test', error })),
];
const e2eErrors = (e2e?.errors ?? []).map((error) => ({
  name: 'Playwright, outside any test',
  error: error.stack ?? error.message,
}));
/** A runner that failed with no failed test and no error named: at least say which, and how. */
const unexplained = (name, status, failed, errors) =>
  status !== 0 && failed === 0 && errors.length === 0
    ? [{ name, error: `exited ${status} with no failed test: see its output above` }]
    : [];
const runErrors = [
  ...unitErrors,
  ...unexplained('Vitest', unitStatus, unitFailed, unitErrors),
  ...e2eErrors,
  ...unexplained('Playwright', e2eStatus, e2eFailed, e2eErrors),
];
if (runErrors.length > 0) {
  console.log('\nErrors outside the tests:');
  for (const { name, error } of runErrors)
    console.log(`  ${name}\n${String(error ?? '').replace(/^/gm, '    ')}`);
}

if (failures.length > 0) {
  console.log('\nFailed:');
  for (const { name, error } of failures)
    console.log(
      `  ${name}\n    ${
        String(error ?? '')
          .split('\n')
          .find((line) => line.trim()) ?? ''
      }`,
    );
}

console.log(
  `\nunit: ${unitPassed} passed, ${unitFailed} failed in ${unitSeconds} s; ` +
    `e2e: ${e2ePassed} passed, ${e2eFailed} failed in ${e2eSeconds} s`,
);
const failed =
  unitFailed +
  e2eFailed +
  (unitStatus !== 0 && unitFailed === 0 ? 1 : 0) +
  (e2eStatus !== 0 && e2eFailed === 0 ? 1 : 0);
console.log(`${unitPassed + e2ePassed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && unitStatus === 0 && e2eStatus === 0 ? 0 : 1);
