// What route tests of the console's own JSON routes share: a GET and a JSON request made as a
// person, read loosely (the assertions check the shapes), and succeeded tasks put in the record.
import type { Role } from '../../src/api/roles';
import type { Db } from '../db/database';

/** What the tests read of an answer's data: shapes checked by the assertions themselves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely, then asserted
export type Any = any;

interface RequestsAs {
  requestAs(user: string, path: string, init?: RequestInit, role?: Role): Response | Promise<Response>;
}

/** `get` and `send` as `user` (Ana, a creator, unless said), answering the status and the body. */
export function jsonRoutesAs(server: RequestsAs) {
  const get = async (path: string, user = 'Ana', role: Role = 'creator') => {
    const response = await server.requestAs(user, path, {}, role);
    return { status: response.status, body: (await response.json()) as { msg?: string; data: Any } };
  };
  const send = async (method: string, path: string, body: unknown, user = 'Ana', role: Role = 'creator') => {
    const response = await server.requestAs(
      user,
      path,
      { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      role,
    );
    return {
      status: response.status,
      body: (await response.json()) as { msg?: string; field?: string; data: Any },
    };
  };
  return { get, send };
}

/** Puts succeeded image tasks with these ids in the record, by Ana, a second apart in id order. */
export async function seedSucceededTasks(db: Db, ids: string[]): Promise<string[]> {
  await db
    .insertInto('tasks')
    .values(
      ids.map((id, n) => ({
        id,
        kind: 'image_generate',
        source: 'created' as const,
        status: 'SUCCEEDED',
        prompt: `prompt ${id}`,
        creator: 'Ana',
        created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
      })),
    )
    .execute();
  return ids;
}
