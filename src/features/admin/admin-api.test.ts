// The People screen's calls: what each sends, and a refusal or an odd answer thrown in words the
// section can show (never a crash, never a silent empty list).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createToken, listTokens, readAudit, readStorage, saveLimits, setRole } from './admin-api';

afterEach(() => vi.unstubAllGlobals());

function answer(body: unknown, status = 200) {
  const fetchMock = vi.fn(async (_path: string, _init?: RequestInit) =>
    typeof body === 'string' ? new Response(body, { status }) : Response.json(body, { status }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const token = {
  id: 't1',
  name: 'nightly',
  userId: 'u1',
  personName: 'Ada',
  createdAt: 1,
  expiresAt: 2,
  lastUsedAt: null,
  revokedAt: null,
};

describe('admin-api', () => {
  it('sends a change as JSON to the person it names, the id escaped', async () => {
    const fetchMock = answer({ ok: true });
    await setRole('oidc:a/b', 'viewer');
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe('/__console/people/oidc%3Aa%2Fb/role');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"role":"viewer"}');
    expect(init?.headers).toMatchObject({ 'content-type': 'application/json' });
  });

  it('throws the server’s own reason, else its status, else that the data is missing', async () => {
    answer({ code: 403, msg: 'Only admins can change roles' }, 403);
    await expect(setRole('u1', 'admin')).rejects.toThrow('Only admins can change roles');
    answer('<html>Bad gateway</html>', 502);
    await expect(setRole('u1', 'admin')).rejects.toThrow('The console answered HTTP 502');
    answer({ code: 0, msg: 'ok' });
    await expect(readStorage()).rejects.toThrow('The console answered without data');
  });

  it('asks the audit log for one action and a trimmed name, and for everything when both are empty', async () => {
    const fetchMock = answer({ entries: [] });
    await readAudit('role.change', '  Ada ');
    await readAudit('', '   ');
    expect(fetchMock.mock.calls.map(([path]) => path)).toEqual([
      '/__console/audit?action=role.change&q=Ada',
      '/__console/audit?',
    ]);
  });

  it('sets the team’s limits or one person’s', async () => {
    const fetchMock = answer({ ok: true });
    const limits = [{ measure: 'tasks' as const, period: 'day' as const, max: null }];
    await saveLimits('team', limits);
    await saveLimits({ userId: 'u2' }, limits);
    expect(fetchMock.mock.calls.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { scope: 'team', limits },
      { scope: 'person', userId: 'u2', limits },
    ]);
  });

  it('checks tokens against the shared schema: a list or a new token of another shape is refused', async () => {
    answer({ tokens: [token] });
    await expect(listTokens(true)).resolves.toEqual([token]);
    answer({ tokens: [{ ...token, expiresAt: 'soon' }] });
    await expect(listTokens(false)).rejects.toThrow();
    answer({ id: 't2', name: 'n', expiresAt: 3 });
    await expect(createToken('n', 30)).rejects.toThrow();
  });
});
