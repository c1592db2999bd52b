// Watches `/v1/*` (proxy or emulator alike) and records what passed: creation requests with their
// answers, status answers and their failures. Recording never changes or breaks the answer, and
// never holds more than RECORD_MAX_BYTES of it: the answers worth recording are small JSON.
import type { Context, MiddlewareHandler } from 'hono';
import { CONSOLE_INBOX, TASK_TYPES, type TaskType } from '../../src/api/schemas';
import { statusQueryKind } from '../../src/api/errors';
import { namesInbox } from '../proxy/console-inbox-marker';
import { answerBytes } from '../http/answer-bytes';
import { storedId } from '../http/task-ids';
import { isJsonMediaType } from '../http/media-type';
import { isTaskId } from '../proxy/proxy-routes';
import { cleanDisplayName, withoutHiddenCharacters } from '../http/display-text';
import { creatorOf } from '../identity/creator';
import type { CreatedTask, CreationLinks, TaskRecorder } from './recorder';
import { BOARD_HEADER, PARENT_REQUEST_HEADER } from '../../src/api/boards';

const CREATE_PATH = /^\/v1\/(image_generate|video_translate|image_to_video)\/?$/;
const STATUS_PATH = /^\/v1\/(image_generate|video_translate|image_to_video)\/([^/]+)$/;
/** The provider's upload endpoint (src/api/upload.ts): multipart in, a small JSON answer out. */
const UPLOAD_PATH = '/v1/figure-resource/upload/file';
/** An endpoint under a kind's path that is not a task id. */
const NOT_TASK_IDS = new Set(['target_languages']);

/**
 * The most of an answer the recorder reads. Status, creation and upload answers are a few KB; a
 * larger one (a misbehaving or hostile upstream: 300 MB once cost 520 MB here) passes through to
 * the browser streamed and unrecorded.
 */
export const RECORD_MAX_BYTES = 1024 * 1024;

const safeDecode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
};

interface Envelope {
  code?: unknown;
  msg?: unknown;
  data?: unknown;
}

/** The form's links of a creation (recorder.ts, CreationLinks), from its headers: ids, or nothing. */
function creationLinks(c: Context): CreationLinks | undefined {
  const id = (name: string) => {
    const value = storedId.safeParse(c.req.header(name)?.trim());
    return value.success ? value.data : undefined;
  };
  const parentRequestId = id(PARENT_REQUEST_HEADER);
  const boardId = id(BOARD_HEADER);
  return parentRequestId || boardId ? { parentRequestId, boardId } : undefined;
}

function createdTasks(kind: TaskType, data: unknown): CreatedTask[] {
  if (kind === 'video_translate' && Array.isArray(data))
    return data
      .filter((item): item is { task_id: string; language?: unknown } => typeof item?.task_id === 'string')
      .map((item) => ({
        id: item.task_id,
        language: typeof item.language === 'string' ? item.language : undefined,
      }));
  const ids = (data as { task_ids?: unknown } | null)?.task_ids;
  return Array.isArray(ids)
    ? ids.filter((id): id is string => typeof id === 'string' && id !== '').map((id) => ({ id }))
    : [];
}

/** The provider's upload answer: `{code, success, result: {url, fileName}}`; undefined unless a success. */
function uploadedFile(answer: unknown): { url: string; fileName: string } | undefined {
  const body = answer as {
    code?: unknown;
    success?: unknown;
    result?: { url?: unknown; fileName?: unknown };
  };
  if (!body || (body.code !== undefined && body.code !== 0) || body.success === false) return undefined;
  const { url, fileName } = body.result ?? {};
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return undefined;
  if (typeof fileName !== 'string' || !fileName.trim()) return undefined;
  // The service's name for an upload is shown to the team: no bidirectional tricks (U+202E) in it.
  return { url, fileName: cleanDisplayName(withoutHiddenCharacters(fileName), 255) };
}

const TOO_LARGE = Symbol('too large');

/** The stream's text, or TOO_LARGE (and the stream cancelled) once it passes `max` bytes. */
async function readCapped(body: ReadableStream<Uint8Array>, max: number): Promise<string | typeof TOO_LARGE> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > max) {
      // Cancels this copy only: the browser's copy goes on streaming from the upstream. Not
      // awaited: a copy's cancel settles only once the browser's copy has ended too.
      reader.cancel().catch(() => undefined);
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The answer's text; undefined when it is not JSON; TOO_LARGE when it is not read at all. */
async function readAnswerText(c: Context): Promise<string | undefined | typeof TOO_LARGE> {
  const response = c.res;
  // The proxy read a small JSON answer whole before passing it on (held bytes are JSON by
  // construction, server/proxy/proxy.ts): no copy of the response, nor its headers, is needed.
  const held = answerBytes(response);
  let text: string | typeof TOO_LARGE;
  if (held)
    text =
      held.byteLength > RECORD_MAX_BYTES
        ? TOO_LARGE
        : Buffer.from(held.buffer, held.byteOffset, held.byteLength).toString('utf8');
  else {
    if (!isJsonMediaType(response.headers.get('content-type')) || !response.body) return undefined;
    const declared = Number(response.headers.get('content-length') ?? 0);
    // A copy shares the upstream stream (tee): whatever the copy reads ahead waits in memory for the
    // browser, so the copy reads at most RECORD_MAX_BYTES, and none of an answer declared larger.
    text =
      declared > RECORD_MAX_BYTES ? TOO_LARGE : await readCapped(response.clone().body!, RECORD_MAX_BYTES);
  }
  if (text === TOO_LARGE)
    console.warn(
      `[tasks] not recorded: ${c.req.method} ${c.req.path} answered more than ${RECORD_MAX_BYTES} bytes (passed on unread)`,
    );
  return text;
}

/** The answer's JSON; undefined when it is not JSON. */
function envelopeOf(text: string | undefined): Envelope | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as Envelope;
  } catch {
    return undefined;
  }
}

/**
 * `inboxPath` is `/callbacks/<secret>`: a creation request on its way to the service carries the
 * inbox's full address, which is put back to the marker so the secret never lands in the record
 * (in whatever spelling it came: the marker middleware has normalised it, this is the last check).
 */
export function recordTraffic(recorder: TaskRecorder, inboxPath: string): MiddlewareHandler {
  const secret = inboxPath.replace(/^\/callbacks\//, '');
  return async (c, next) => {
    await next();
    const path = c.req.path;
    if (c.req.method === 'POST' && path === UPLOAD_PATH) {
      // Only the answer is read: the request body is the file, streamed on and never held here.
      if (c.res.status !== 200) return;
      try {
        const text = await readAnswerText(c);
        const file = text === TOO_LARGE ? undefined : uploadedFile(envelopeOf(text));
        if (file) await recorder.uploaded(file.url, file.fileName, creatorOf(c));
      } catch (error) {
        console.error(`[tasks] could not record an upload: ${(error as Error).message}`);
      }
      return;
    }
    const create = c.req.method === 'POST' ? CREATE_PATH.exec(path) : null;
    const status = c.req.method === 'GET' ? STATUS_PATH.exec(path) : null;
    if (!create && !(status && !NOT_TASK_IDS.has(status[2]!))) return;
    const id = status ? safeDecode(status[2]!) : '';
    // Not a task id (`%2f`, an encoded NUL…): the proxy refused it, and the record has nothing to learn.
    if (status && !isTaskId(id)) return;
    try {
      const text = await readAnswerText(c);
      if (text === TOO_LARGE) return;
      // The answer last recorded for the task, word for word (most polls): nothing to parse or write.
      const unchanged =
        status &&
        c.res.status === 200 &&
        text !== undefined &&
        recorder.unchanged(status[1] as TaskType, id, text);
      if (unchanged) return;
      const envelope = envelopeOf(text);
      const ok = c.res.status === 200 && envelope?.code === 0;
      if (create) {
        if (!ok) return;
        const kind = create[1] as TaskType;
        // Already read (and size-checked) by the proxy or the emulator; this is the cached copy.
        const params = JSON.parse(await c.req.text()) as Record<string, unknown>;
        if (typeof params.callback_url === 'string' && namesInbox(params.callback_url, secret))
          params.callback_url = CONSOLE_INBOX;
        const tasks = createdTasks(kind, envelope.data);
        if (tasks.length)
          await recorder.created(kind, params, tasks, creatorOf(c), undefined, creationLinks(c));
        return;
      }
      const kind = status![1] as TaskType;
      const data = envelope?.data as Record<string, unknown> | undefined;
      if (ok && data && typeof data.status === 'string' && (TASK_TYPES as readonly string[]).includes(kind)) {
        // The exact text is what is compared: the answer is not serialised again to be compared.
        await recorder.status(kind, id, data, text);
      } else {
        const code = typeof envelope?.code === 'number' && envelope.code !== 0 ? envelope.code : undefined;
        await recorder.error(id, {
          // Named as the browser's client names it, so the card says why (not found, no status query…).
          kind: ok ? 'malformed' : statusQueryKind(c.res.status, code),
          httpStatus: c.res.status,
          ...(typeof envelope?.code === 'number' ? { code: envelope.code } : {}),
          msg: typeof envelope?.msg === 'string' ? envelope.msg : `HTTP ${c.res.status}`,
        });
      }
    } catch (error) {
      console.error(`[tasks] could not record ${c.req.method} ${path}: ${(error as Error).message}`);
    }
  };
}
