import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** What the one Hono app assembles: every folder but the starters. */
const APP_PARTS = [
  'openapi',
  'auth',
  'static',
  'emulator',
  'callbacks',
  'follow',
  'notify',
  'insights',
  'limits',
  'preview',
  'shares',
  'boards',
  'tasks',
  'reviews',
  'results',
  'proxy',
  'identity',
  'config',
  'http',
  'db',
];

/**
 * Import direction on the server, one folder per job; each may import the folders listed, nothing
 * else (tests and server/testing are exempt). Every folder of server/ must have an entry: one
 * without is an error on each of its files (below), so a new folder cannot slip past the rule.
 * The layers, top to bottom; a folder imports only folders on lower lines (those its entry lists):
 *
 *   entry                  starts things (npm start, the demo, the standalone emulator)
 *   app                    assembles the one Hono app
 *   auth, openapi, static, emulator, callbacks, follow, shares, boards, insights, limits, preview
 *   tasks                  the team's record (callbacks, follow, shares and boards build on it)
 *   reviews                comments and decisions on results (a task's view carries their counts)
 *   notify, results        webhooks and result files, fed by the record
 *   proxy                  the way to the service
 *   identity, config       who a request is; the environment
 *   http, db               request plumbing; the schema and connection: they import no other folder
 *
 * The emulator stands alone on identity, config and http; openapi uses src/api only.
 */
export const SERVER_LAYERS = {
  entry: ['app', ...APP_PARTS],
  app: APP_PARTS,
  auth: ['identity', 'config', 'http', 'db'],
  // The OpenAPI description: made from src/api's schemas only.
  openapi: [],
  static: ['http'],
  emulator: ['identity', 'config', 'http'],
  callbacks: ['tasks', 'results', 'proxy', 'identity', 'config', 'http', 'db'],
  insights: ['http', 'db'],
  // Spending limits and the daily upload tallies: counted in the database, per person and team.
  limits: ['identity', 'http', 'db'],
  // Link previews of reference images: fetched through the outbound guard.
  preview: ['proxy', 'http'],
  // The server's follower of unfinished tasks: asks through the app, writes through the recorder.
  follow: ['tasks', 'results', 'proxy', 'identity', 'config', 'http', 'db'],
  // Stars and boards: results of the team's record, shown and zipped as tasks are.
  boards: ['tasks', 'reviews', 'results', 'identity', 'http', 'db'],
  // Share links: a board's (its items, in its order) or a request's kept results for a visitor with
  // no account.
  shares: ['boards', 'tasks', 'results', 'identity', 'http', 'db'],
  tasks: ['notify', 'reviews', 'results', 'proxy', 'identity', 'config', 'http', 'db'],
  // Comments and decisions on results: the store, the routes, the summary a task's view carries.
  reviews: ['identity', 'http', 'db'],
  // Webhooks told when requests end: the outbox the recorder fills, the sender, the routes.
  notify: ['proxy', 'identity', 'config', 'http', 'db'],
  // Result files kept in the team's store: the copy job, the stores, serving.
  results: ['proxy', 'config', 'http', 'db'],
  proxy: ['identity', 'config', 'http'],
  config: ['http'],
  // Who a request is (the verified person, the role): below everything that records or spends.
  identity: ['http', 'db'],
  http: [],
  db: [],
};

/** The browser's features (src/features): each must be listed, like the server's folders. */
export const FEATURES = [
  'image-generate',
  'video-translate',
  'image-to-video',
  'tasks',
  'callbacks',
  'insights',
  'shares',
  'reviews',
  'admin',
];
/** What a feature offers the rest of the app: its screens and its shared store. */
const PUBLIC = {
  tasks: [
    'history/history',
    'history/task-record',
    'history/following',
    'list/tasks-screen',
    'detail/task-detail-screen',
    'history/record-follow-host',
    'requests/request-screen',
    'requests/request-tiles',
    'boards/boards-screen',
    'boards/board-screen',
    'boards/compare-screen',
    // The shell's notifier of finished requests: whether it is wanted, and the notifier (lazy).
    'notify/notify-wanted',
    'notify/request-notifier-gate',
    // Times as people read them ("3m 05s", "2 minutes ago"): the People screen's follower figures too.
    'shared/format',
  ],
  callbacks: ['callback-subscriber', 'callbacks-screen'],
  // The image rows and the prompt are shared with Image to video rather than copied.
  'image-generate': ['image-generate-screen', 'form/reference-images-field', 'image-url-row', 'prompt-field'],
  'image-to-video': ['image-to-video-screen', 'link/animate-link'],
  'video-translate': ['video-translate-screen'],
  insights: ['insights-screen'],
  // Share links: the button on a board's and a request's page; the admins' list of live links (on
  // People) reads them and draws each as the dialog's row.
  shares: ['share-button', 'shares-api', 'share-dialog'],
  // Comments and decisions on results: the badge and the Review button (what they draw loads on first use).
  reviews: ['review-slot', 'review-button', 'review-dialog'],
  // The People screen (people, roles, tokens, limits, storage, webhooks, share links, audit): a route.
  admin: ['people-screen'],
};

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-server',
      'data',
      'test-results',
      'playwright-report',
      'node_modules',
      'screenshots',
      // StrykerJS: its sandbox while it runs, and the reports it writes (stryker.config.json).
      '.stryker-tmp',
      'reports',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginQuery.configs['flat/recommended'],
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['server/**/*.{ts,mjs}', 'scripts/**/*.{ts,mjs,js}', 'e2e/**/*.ts', '*.config.{ts,js}'],
    languageOptions: { globals: globals.node },
  },
  {
    // A server function that does one thing fits on a screen or two: past 100 lines it is doing
    // several, and a newcomer cannot see where one ends. Tests are exempt (a table of cases is long).
    files: ['server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }] },
  },
  ...importDirectionRules(),
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);

/**
 * Import direction, so the layers stay as the README draws them: the shell (src/app) may use
 * features; features use forms, ui primitives and the api layer; forms use ui and api; ui and api
 * use nothing above them. A feature reaches another feature only through its public modules
 * (below), never its internals. The server may share src/api (schemas, rules), nothing else of the
 * browser. Test files are exempt: they may reach anything they exercise.
 */
function importDirectionRules() {
  const serverFolders = [...Object.keys(SERVER_LAYERS), 'testing'];
  const tests = ['**/*.test.ts', '**/*.test.tsx', 'src/testing/**'];
  const forbid = (...groups) => ({
    group: groups.map((group) => `@/${group}/**`).concat(groups.map((group) => `**/src/${group}/**`)),
    message: 'Imports point down the layers: app → features → forms → ui/api (see eslint.config.js).',
  });
  const testing = { group: ['@/testing/**', '**/testing/**'], message: 'Test doubles are for tests only.' };
  const rule = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
  // Across folders the `@/` alias is used, so the patterns above see every import.
  const upward = { group: ['../*'], message: 'Import across folders with the @/ alias.' };
  const browserRule = (patterns) => rule([...patterns, upward]);
  const otherFeatureInternals = (own) =>
    FEATURES.filter((feature) => feature !== own).map((feature) => ({
      regex: `^@/features/${feature}/(?!(${PUBLIC[feature].join('|')})$)`,
      message: `Use ${feature}'s public modules (${PUBLIC[feature].join(', ')}), not its internals.`,
    }));
  return [
    {
      // The server loads src/api too, and it has no @/ alias: within src/api, imports are relative.
      files: ['src/api/**'],
      ignores: tests,
      rules: rule([forbid('app', 'features', 'forms', 'components'), testing]),
    },
    {
      files: ['src/components/**'],
      ignores: tests,
      rules: browserRule([forbid('app', 'features', 'forms'), testing]),
    },
    { files: ['src/forms/**'], ignores: tests, rules: browserRule([forbid('app', 'features'), testing]) },
    ...FEATURES.map((feature) => ({
      files: [`src/features/${feature}/**`],
      ignores: tests,
      rules: browserRule([forbid('app'), testing, ...otherFeatureInternals(feature)]),
    })),
    { files: ['src/app/**', 'src/main.tsx'], ignores: tests, rules: browserRule([testing]) },
    unlisted('server/*/**', serverFolders, 'server/', 'SERVER_LAYERS'),
    unlisted('src/features/*/**', FEATURES, 'src/features/', 'FEATURES'),
    ...Object.entries(SERVER_LAYERS).map(([folder, allowed]) => ({
      files: [`server/${folder}/**`],
      ignores: tests,
      rules: rule([
        {
          group: ['**/src/*', '!**/src/api', '**/src/!(api)/**'],
          message: 'The server shares src/api only.',
        },
        testing,
        ...serverFolders
          .filter((other) => other !== folder && !allowed.includes(other))
          .map((other) => ({
            regex: `^\\.\\./${other}(/|$)`,
            message: `server/${folder} may import ${allowed.join(', ') || 'no other server folder'} (see SERVER_LAYERS in eslint.config.js).`,
          })),
      ]),
    })),
  ];
}

/**
 * An error on every file of a folder matching `pattern` that `listed` does not name: the import
 * rules are written per folder, and a folder without an entry would be bound by none of them.
 */
function unlisted(pattern, listed, prefix, table) {
  return {
    files: [pattern],
    ignores: listed.map((folder) => `${prefix}${folder}/**`),
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program',
          message: `This folder of ${prefix} is not in ${table} (eslint.config.js): add it there, with what it may import.`,
        },
      ],
    },
  };
}
