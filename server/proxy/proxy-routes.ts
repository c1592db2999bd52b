// What the proxy may forward with the bearer token: exactly the endpoints the browser client calls
// (src/api/paths.ts and src/api/upload.ts: the interface's section 4 and the provider's extras it
// uses), each with its one method. Anything else would spend the token on a path nobody reviewed
// (`PUT /v1/users/me`, `DELETE …`, `/v1/..%2f..%2fadmin`), so it never leaves the console.
import { API_PATHS } from '../../src/api/paths';
import { UPLOAD_PATH } from '../../src/api/upload';

const FIXED: ReadonlyMap<string, 'GET' | 'POST'> = new Map([
  [API_PATHS.imageGenerate, 'POST'],
  [API_PATHS.videoTranslate, 'POST'],
  [API_PATHS.imageToVideo, 'POST'],
  // Stryker disable next-line ArrayDeclaration,StringLiteral: it would pass as a task id of its prefix too; listed to be seen
  [API_PATHS.targetLanguages, 'GET'],
  [UPLOAD_PATH, 'POST'],
]);

/** `<prefix><task id>`: the status queries, GET only. */
const TASK_PREFIXES = [
  API_PATHS.imageGenerateTask(''),
  API_PATHS.videoTranslateTask(''),
  API_PATHS.imageToVideoTask(''),
];

/**
 * A task id as the service hands them out (`i2is-…`, `vt-…`, a UUID): the characters a URL path
 * segment may hold as they are (RFC 3986 pchar), so never `/`, `\`, `%`, `?`, `#`, a control
 * character or a space once decoded, and not a dot segment. `%2f`, `%2e%2e`, an encoded NUL or a
 * second round of encoding (`%252f`) is no task id.
 */
const TASK_ID = /^(?!\.+$)[\w.~:@!$&'()*+,;=-]{1,256}$/;

export function isTaskId(id: string): boolean {
  return TASK_ID.test(id);
}

type ProxyRoute =
  | { ok: true; /** The path to forward, rebuilt from what was checked. */ path: string }
  | { ok: false; status: 404 | 405; allow?: string };

/** `rawPath` is the request's path as it arrived, still percent-encoded. */
export function proxyRoute(method: string, rawPath: string): ProxyRoute {
  const fixed = FIXED.get(rawPath);
  if (fixed) return method === fixed ? { ok: true, path: rawPath } : { ok: false, status: 405, allow: fixed };
  const prefix = TASK_PREFIXES.find((candidate) => rawPath.startsWith(candidate));
  // Stryker disable next-line ConditionalExpression: without it, prefix.length throws inside the try below, also a 404
  if (!prefix) return { ok: false, status: 404 };
  let id: string;
  try {
    id = decodeURIComponent(rawPath.slice(prefix.length));
  } catch {
    return { ok: false, status: 404 };
  }
  if (!isTaskId(id)) return { ok: false, status: 404 };
  if (method !== 'GET') return { ok: false, status: 405, allow: 'GET' };
  return { ok: true, path: `${prefix}${encodeURIComponent(id)}` };
}
