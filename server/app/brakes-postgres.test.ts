// Two console instances on one PostgreSQL database, as behind a load balancer: every brake holds
// for the two together exactly as it holds for one (the sign-in brake, the callback sender limit,
// the daily upload quota, the spending limits' lock), at its bound and one past it.
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuth } from '../auth/auth';
import { asset } from '../emulator/media';
import { UPLOAD_ROUTE } from '../emulator/uploads';
import type { Db } from '../db/database';
import { admit, LIMITS_LOCK, setLimits, type LimitInput } from '../limits/limits';
import { asPerson } from '../testing/identity';
import { usePostgresInstances } from '../testing/postgres-instances';
import type { NodeApp } from './node-app';

const SECRET = 'brakes-pg-secret-0123456789';
const { freshDatabase, instance } = usePostgresInstances(SECRET);
const apps: NodeApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** Two instances on one new database. */
async function pair(env: Record<string, string> = {}): Promise<[NodeApp, NodeApp]> {
  const url = freshDatabase();
  const one = instance(url, env);
  apps.push(one);
  await one.database; // migrated once, before the second opens it
  const two = instance(url, env);
  apps.push(two);
  await two.database;
  return [one, two];
}

const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });

describe('two instances on one PostgreSQL database', () => {
  it('share the sign-in brake: five failures in all, through either, brake the client', async () => {
    const [one, two] = await pair();
    const signIn = [one, two].map(
      (app) => createAuth({ store: app.identity, password: 'right password', maxFailures: 5 }).routes,
    );
    const attempt = (n: number, password: string) =>
      signIn[n % 2]!.request(
        '/login',
        {
          method: 'POST',
          body: new URLSearchParams({ password }),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
        from('203.0.113.7'),
      );
    for (let n = 0; n < 4; n++) expect((await attempt(n, 'wrong')).status).toBe(401);
    // Four failures: one short of the brake, so the right password still signs in (on either).
    expect((await attempt(5, 'right password')).status).toBe(303);
    for (let n = 0; n < 5; n++) expect((await attempt(n, 'wrong')).status).toBe(401);
    // The fifth failure was on the first instance; the second brakes the client too.
    const braked = await attempt(1, 'right password');
    expect(braked.status).toBe(429);
    expect(Number(braked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('share each callback sender’s bucket: the burst through both, and one more is refused', async () => {
    // 1 a second, bursts of 10: ten callbacks in all go in, the eleventh waits.
    const [one, two] = await pair({ CALLBACK_RATE_LIMIT: '1' });
    const post = (app: NodeApp) =>
      app.app.request(
        `/callbacks/${SECRET}`,
        { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } },
        from('198.51.100.4'),
      );
    // Past the brake, a callback that is not JSON is refused as such (415): the brake let it in.
    for (let n = 0; n < 10; n++) expect((await post(n % 2 ? two : one)).status).toBe(415);
    expect((await post(one)).status).toBe(429);
    expect((await post(two)).status).toBe(429);
  });

  it('share each person’s daily upload quota: exactly the limit through both, one byte more refused', async () => {
    const [one, two] = await pair({ UPLOAD_QUOTA_MB_PER_DAY: '1' });
    const png = asset('reference.png');
    const upload = async (app: NodeApp, size: number) => {
      const bytes = new Uint8Array(size);
      bytes.set(png.subarray(0, Math.min(size, 64)));
      const form = new FormData();
      form.append('file', new Blob([bytes]), 'a.png');
      const res = await app.app.request(
        `http://127.0.0.1:8080${UPLOAD_ROUTE}`,
        { method: 'POST', body: form },
        asPerson('Ana'),
      );
      return res.status;
    };
    const half = 512 * 1024;
    expect(await upload(one, half)).toBe(200);
    expect(await upload(two, half)).toBe(200); // 1 MB of 1 MB, half through each
    expect(await upload(two, 1)).toBe(429);
    expect(await upload(one, 1)).toBe(429);
  });

  describe("the spending limits' check waits for the lock of whoever its count covers", () => {
    const images = { tasks: 1, images: 1, videoSeconds: 0, videoUnknown: false };
    const limit: LimitInput[] = [{ measure: 'images', period: 'day', max: 5 }];
    /** Holds `key` on the second instance's connection while the first admits a creation by Bea. */
    async function admitWhileHeld(key: 'team' | 'person', scopes: ('team' | 'person')[]) {
      const [one, two] = await pair();
      const { db } = await one.database;
      for (const scope of scopes) await setLimits(db, scope, 'user-bea', limit, null);
      const { db: other } = await two.database;
      const second = key === 'team' ? sql`0` : sql`hashtext('user-bea')`;
      await other.connection().execute(async (held: Db) => {
        await sql`select pg_advisory_lock(${LIMITS_LOCK}, ${second})`.execute(held);
        let settled = false;
        const admission = admit(db, 'user-bea', images, Date.now()).finally(() => (settled = true));
        // The check is seen waiting for that very lock (not granted), and has not ended meanwhile.
        await vi.waitFor(
          async () => {
            expect(settled).toBe(false);
            const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_locks
              where locktype = 'advisory' and not granted and classid = ${LIMITS_LOCK}
                and objid = (${second})::bigint & 4294967295`.execute(held);
            expect(rows[0]!.n).toBe(1);
          },
          { timeout: 10_000, interval: 20 },
        );
        await sql`select pg_advisory_unlock(${LIMITS_LOCK}, ${second})`.execute(held);
        expect((await admission).ok).toBe(true);
      });
    }

    it("the team's when only the team has limits", () => admitWhileHeld('team', ['team']));
    it("the team's when the team and the person have limits", () =>
      admitWhileHeld('team', ['team', 'person']));
    it("the person's own when only they have limits", () => admitWhileHeld('person', ['person']));
  });
});
