// `npm test`: unit tests (Vitest) and end-to-end tests (Playwright, real Chromium) side by side, then
// one closing summary line that CI reads: "N passed, N failed".
//
// Side by side, not one after the other: Playwright leaves a third of two cores idle (its tests wait on
// the emulator's clock, on polls and on page loads), and Vitest fills it. Vitest runs at a lower
// priority, so the browser, whose tests wait with timeouts, comes first; Vitest's tests have room.
// Playwright's output shows as it runs; Vitest's is kept and printed in one piece when Playwright ends.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

mkdirSync('test-results', { recursive: true });

const children = new Set();
/**
 * Runs a package's command line with node; resolves its exit status (a signal counts as 1). `keepTo`
 * keeps its output (also written to that file as it comes) instead of showing it.
 */
function run(bin, args, { env = {}, keepTo, nice = false } = {}) {
  // `nice` renices every thread from the start (os.setPriority after spawn would miss those Node
  // starts at boot); where there is none, the runner runs at the usual priority.
  const niced = nice && existsSync('/usr/bin/nice');
  const [command, commandArgs] = niced
    ? ['/usr/bin/nice', ['-n', '10', process.execPath, bin, ...args]]
    : [process.execPath, [bin, ...args]];
  const child = spawn(command, commandArgs, {
    stdio: keepTo ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...env },
  });
  children.add(child);
  const output = [];
  const file = keepTo && createWriteStream(keepTo);
  const keep = (chunk) => {
    output.push(chunk);
    file?.write(chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return new Promise((resolve) => {
    const done = (status) => {
      children.delete(child);
      file?.end();
      resolve({ status, output: Buffer.concat(output) });
    };
    child.on('error', (error) => {
      keep(Buffer.from(`${error.stack}\n`));
      done(1);
    });
    // On 'exit', not 'close': a process a test left behind can hold the pipe open long after. Output
    // still in the pipe gets a moment to arrive.
    child.on('exit', (code) => setTimeout(() => done(code ?? 1), child.stdout ? 200 : 0));
  });
}

// Ctrl-C reaches both runners from the terminal; a signal sent to this process alone (a CI timeout)
// is passed on. Either way both stop in their own way, and the summary below still prints.
let interrupted;
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    interrupted ??= signal;
    for (const child of children) child.kill(signal);
  });

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const started = Date.now();
const secondsSinceStart = () => Math.round((Date.now() - started) / 1000);
// Files an earlier, interrupted run left would pass for this run's.
for (const file of ['vitest.json', 'vitest-run-errors.json', 'playwright.json'])
  rmSync(`test-results/${file}`, { force: true });

// One folder for the images every emulator of both runners paints (server/testing/test-run.ts): the
// demo's, painted by three servers, then once.
const paintedDir = mkdtempSync(join(tmpdir(), 'media-console-painted-'));
process.env.EMULATOR_PAINTED_DIR = paintedDir;

let unitSeconds = 0;
const unitRun = run(
  'node_modules/vitest/vitest.mjs',
  [
    'run',
    '--reporter=default',
    '--reporter=json',
    '--outputFile.json=test-results/vitest.json',
    '--reporter=./scripts/vitest-run-errors.mjs',
  ],
  // Kept output loses the terminal: keep its colours when the run has one.
  {
    keepTo: 'test-results/vitest.log',
    nice: true,
    env: process.stdout.isTTY ? { FORCE_COLOR: '1' } : {},
  },
).then((result) => {
  unitSeconds = secondsSinceStart();
  return result;
});
const e2eRun = run('node_modules/@playwright/test/cli.js', ['test', '--reporter=list,json'], {
  env: { PLAYWRIGHT_JSON_OUTPUT_NAME: 'test-results/playwright.json' },
});
const { status: e2eStatus } = await e2eRun;
const e2eSeconds = secondsSinceStart();
const { status: unitStatus, output: unitOutput } = await unitRun;
rmSync(paintedDir, { recursive: true, force: true });
console.log(`\n── Vitest (ran beside Playwright, finished at ${unitSeconds} s) ──\n`);
process.stdout.write(unitOutput);

const unit = readJson('test-results/vitest.json');
const unitRunErrors = readJson('test-results/vitest-run-errors.json');
const e2e = readJson('test-results/playwright.json');

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
    `e2e: ${e2ePassed} passed, ${e2eFailed} failed in ${e2eSeconds} s; side by side, ${secondsSinceStart()} s in all`,
);
const failed =
  unitFailed +
  e2eFailed +
  (unitStatus !== 0 && unitFailed === 0 ? 1 : 0) +
  (e2eStatus !== 0 && e2eFailed === 0 ? 1 : 0);
console.log(`${unitPassed + e2ePassed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (interrupted) console.log(`Interrupted (${interrupted}).`);
process.exit(interrupted ? 130 : failed === 0 && unitStatus === 0 && e2eStatus === 0 ? 0 : 1);
