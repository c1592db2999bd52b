// Roles, enforced on the server for every route of the Node side. One table says what each route
// needs; anything not in it needs an admin. The browser hides what a role may not use, but this is
// the rule: a viewer reads everything and spends nothing, a creator creates, uploads and re-runs,
// an admin also manages people, the emulator's settings and the limits.
import type { Context, MiddlewareHandler } from 'hono';
import { CONSOLE_CALLBACKS_PATH } from '../../src/api/core/rules';
import { needsRole, roleAtLeast, type Role } from '../../src/api/roles';
import { IDENTITY_KEY, identityOf, type Identity } from './request-identity';
import { SESSION_ID_KEY } from '../http/stream-limits';
import { identityOfBearer, INVALID_TOKEN_MESSAGE, type ApiTokens } from './api-tokens';
import { NO_STORE } from '../http/no-store';

export type Need = 'public' | Role;

interface AccessRule {
  methods: readonly string[];
  path: RegExp;
  need: Need;
  /** What the role allows, for the refusal: "Only admins can <what>". */
  what: string;
}

const READ = ['GET', 'HEAD'] as const;

/** First match wins. */
const ACCESS_RULES: readonly AccessRule[] = [
  // The service must reach the inbox; its secret path protects it.
  { methods: ['POST'], path: /^\/callbacks\/[^/]+\/?$/, need: 'public', what: 'deliver callbacks' },
  // What the service would host publicly (results, samples, uploaded files): server-side fetches
  // (the service, the emulator's reference images) carry no cookie.
  {
    methods: READ,
    path: /^\/emulator\/(media|samples|uploads)(\/|$)/,
    need: 'public',
    what: 'read media',
  },
  { methods: READ, path: /^\/emulator\/health$/, need: 'public', what: 'check health' },
  // A share link's page, its results' kept files and the page's own stylesheet and script
  // (server/shares/visitor.ts): for a visitor with no account; the token in the path is the key.
  {
    methods: READ,
    path: /^\/s\/(-\/share\.(css|js)|[A-Za-z0-9_-]+(\/media\/[^/]+\/[^/]+)?)$/,
    need: 'public',
    what: 'open a share link',
  },
  { methods: READ, path: /^\/__console\/config$/, need: 'viewer', what: 'open the console' },
  // The OpenAPI description (server/openapi): whoever may call the API may read it.
  { methods: READ, path: /^\/__console\/openapi\.json$/, need: 'viewer', what: 'read the API description' },
  { methods: READ, path: /^\/__console\/tasks(\/.*)?$/, need: 'viewer', what: "read the team's tasks" },
  // Bulk actions (server/tasks/bulk.ts): a zip of results, and hiding tasks from one's own view.
  {
    methods: ['POST'],
    path: /^\/__console\/tasks\/(zip|hidden)$/,
    need: 'viewer',
    what: 'download or hide tasks',
  },
  // Ask the service about a task now (server/follow/routes.ts): spends nothing but the team's request rate.
  {
    methods: ['POST'],
    path: /^\/__console\/tasks\/[^/]+\/check$/,
    need: 'viewer',
    what: 'check a task again',
  },
  { methods: READ, path: /^\/__console\/follow$/, need: 'admin', what: 'see how tasks are followed' },
  // Webhooks told when requests end (server/notify): one's own; the team's are an admin's (checked there).
  {
    methods: ['GET', 'HEAD', 'POST', 'DELETE'],
    path: /^\/__console\/webhooks(\/[^/]+(\/deliveries)?)?$/,
    need: 'creator',
    what: 'manage webhooks',
  },
  // Stars (server/boards/stars.ts): each person's own, viewers' too.
  { methods: [...READ, 'POST'], path: /^\/__console\/stars$/, need: 'viewer', what: 'star results' },
  // Boards (server/boards): everyone reads them; creators make and fill them (deleting another
  // person's board is checked there: only admins).
  { methods: READ, path: /^\/__console\/boards(\/.*)?$/, need: 'viewer', what: "see the team's boards" },
  {
    methods: ['POST', 'PATCH', 'PUT', 'DELETE'],
    path: /^\/__console\/boards(\/.*)?$/,
    need: 'creator',
    what: 'make or change boards',
  },
  // Share links (server/shares): creators make, list and revoke their own; an admin lists and
  // revokes every one (checked in the routes).
  {
    methods: [...READ, 'POST', 'DELETE'],
    path: /^\/__console\/shares(\/[^/]+)?$/,
    need: 'creator',
    what: 'share boards and requests',
  },
  // Comments and decisions on results (server/reviews): everyone signed in, viewers too; deleting
  // another person's comment is checked there (only admins).
  { methods: READ, path: /^\/__console\/reviews\/[^/]+$/, need: 'viewer', what: 'read reviews' },
  { methods: ['POST'], path: /^\/__console\/reviews\/[^/]+$/, need: 'viewer', what: 'review results' },
  {
    methods: ['DELETE'],
    path: /^\/__console\/reviews\/[^/]+\/comments\/[^/]+$/,
    need: 'viewer',
    what: 'delete comments',
  },
  // Result files kept in the team's store (server/results): whoever may see the tasks.
  { methods: READ, path: /^\/__console\/results\//, need: 'viewer', what: "read the team's results" },
  // A pasted image's preview (server/preview), fetched through the outbound guard.
  { methods: READ, path: /^\/__console\/preview$/, need: 'viewer', what: 'preview an image' },
  { methods: READ, path: /^\/__console\/storage$/, need: 'admin', what: 'see the storage used' },
  { methods: ['DELETE'], path: /^\/__console\/results\/[^/]+$/, need: 'admin', what: 'remove kept results' },
  // Requests (one submission each, with its tasks); a task's result downloads are under /tasks above.
  { methods: READ, path: /^\/__console\/requests(\/.*)?$/, need: 'viewer', what: "read the team's requests" },
  {
    methods: READ,
    path: /^\/__console\/insights(\.csv)?$/,
    need: 'viewer',
    what: "read the team's insights",
  },
  // What limits apply to me and how much of them is used: everyone signed in (the forms show it).
  { methods: READ, path: /^\/__console\/limits$/, need: 'viewer', what: 'read their limits' },
  { methods: READ, path: /^\/__console\/limits\/all$/, need: 'admin', what: 'manage the limits' },
  { methods: ['PUT'], path: /^\/__console\/limits$/, need: 'admin', what: 'set the limits' },
  {
    methods: READ,
    path: new RegExp(`^${CONSOLE_CALLBACKS_PATH}/(log|events)$`),
    need: 'viewer',
    what: 'read the callbacks log',
  },
  {
    methods: READ,
    path: /^\/callbacks\/[^/]+\/(log|events)$/,
    need: 'viewer',
    what: 'read the callbacks log',
  },
  {
    methods: ['POST'],
    path: new RegExp(`^${CONSOLE_CALLBACKS_PATH}$`),
    need: 'creator',
    what: 'add callbacks by hand',
  },
  // Status checks and lookups read; creating and uploading spend the service token.
  { methods: READ, path: /^\/v1\//, need: 'viewer', what: 'check task status' },
  { methods: ['POST'], path: /^\/v1\//, need: 'creator', what: 'create tasks or upload files' },
  { methods: READ, path: /^\/emulator\/settings$/, need: 'viewer', what: "read the emulator's settings" },
  {
    methods: ['POST'],
    path: /^\/emulator\/settings$/,
    need: 'admin',
    what: "change the emulator's settings",
  },
  // Personal API tokens (server/identity/token-routes.ts): everyone signed in makes and revokes their
  // own; admins list everyone's (and revoke any: checked in the route).
  { methods: READ, path: /^\/__console\/tokens\/all$/, need: 'admin', what: "see everyone's API tokens" },
  { methods: [...READ, 'POST'], path: /^\/__console\/tokens$/, need: 'viewer', what: 'make API tokens' },
  { methods: ['DELETE'], path: /^\/__console\/tokens\/[^/]+$/, need: 'viewer', what: 'revoke API tokens' },
  {
    methods: READ,
    path: /^\/__console\/(people|audit|invitations)(\/.*)?$/,
    need: 'admin',
    what: 'manage people',
  },
];

/** What a request needs, and the words of its refusal. */
type AccessNeed = Pick<AccessRule, 'need' | 'what'>;

const DEFAULT_RULE: AccessNeed = { need: 'admin', what: 'do this' };

export function accessRule(method: string, path: string): AccessNeed {
  const m = method.toUpperCase();
  return ACCESS_RULES.find((rule) => rule.methods.includes(m) && rule.path.test(path)) ?? DEFAULT_RULE;
}

interface AccessGuardOptions {
  /**
   * Who a request without an identity in its env is: the local admin when the Node side runs on its
   * own on loopback (`npm run dev`, `vite preview`, tests); undefined refuses it (`npm start`, whose
   * sign-in layer always hands one over).
   */
  anonymous?: Identity;
  /** Called once per identity seen, so the person has a row (the local admin's first request). */
  seen?: (identity: Identity) => Promise<void> | void;
  /**
   * Personal API tokens, for a request that comes without a sign-in layer in front (`npm run dev`,
   * `vite preview`): its `Authorization: Bearer` token acts as the token's person there too.
   */
  apiTokens?: ApiTokens;
}

/** A bearer token that is not a valid console token: 401, saying so in the standard header too. */
export function refuseToken(c: Context, msg: string): Response {
  return c.json({ code: 401, msg }, 401, {
    ...NO_STORE,
    'www-authenticate': 'Bearer error="invalid_token"',
  });
}

export function accessGuard(options: AccessGuardOptions): MiddlewareHandler {
  const known = new Set<string>();
  return async (c, next) => {
    const rule = accessRule(c.req.method, c.req.path);
    if (rule.need === 'public') return next();
    let identity = identityOf(c);
    if (!identity && options.apiTokens) {
      const bearer = await identityOfBearer(options.apiTokens, c.req.path, c.req.header('authorization'));
      if (bearer === 'refused') return refuseToken(c, INVALID_TOKEN_MESSAGE);
      if (bearer !== 'foreign') identity = bearer;
    }
    identity ??= options.anonymous;
    if (!identity) return c.json({ code: 401, msg: 'Sign in to the console first' }, 401, NO_STORE);
    if (!roleAtLeast(identity.role, rule.need))
      return c.json({ code: 403, msg: needsRole(rule.need, rule.what), role: identity.role }, 403, NO_STORE);
    if (options.seen && !known.has(identity.userId)) {
      await options.seen(identity);
      known.add(identity.userId);
    }
    c.set(IDENTITY_KEY as never, identity as never);
    // Undefined for an identity without a session: read back the same as never set.
    c.set(SESSION_ID_KEY as never, identity.sessionId as never);
    return next();
  };
}
