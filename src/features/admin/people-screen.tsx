// Admins: the team's people and their roles, everyone's API tokens, invitations (one-time links that
// make a local account), and the audit log. The server refuses all of it to anyone else
// (server/identity/). Everyone else finds their own API tokens here.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useConsoleInfo } from '@/api/console-info';
import { needsRole, ROLE_LABELS, ROLE_SUMMARIES, ROLES, type Role } from '@/api/roles';
import { Button } from '@/components/ui/core/button';
import { CopyButton } from '@/components/ui/copy-button';
import { hintClass, inputClass } from '@/components/ui/styles';
import { AdminSection, SectionError } from './admin-section';
import {
  createInvitation,
  listPeople,
  readAudit,
  removePerson,
  setRole,
  type AuditEntry,
  type Person,
} from './admin-api';
import { ApiTokensSection } from './api-tokens-section';
import { LimitsSection } from './limits-section';
import { StorageSection } from './storage-section';
import { FollowingSection } from './following-section';
import { WebhooksSection } from './webhooks-section';
import { SharesSection } from './shares-section';

const SOURCES: Record<string, string> = {
  oidc: 'Single sign-on',
  local: 'Account',
  proxy: 'Proxy',
  'local-admin': 'This machine',
  'shared-password': 'Team password',
};

const ACTIONS: Record<string, string> = {
  'sign-in': 'Signed in',
  'sign-in.refused': 'Sign-in refused',
  'role.change': 'Role changed',
  'person.remove': 'Removed',
  'invite.create': 'Invitation made',
  'invite.accept': 'Invitation accepted',
  'invite.revoke': 'Invitation revoked',
  'setup.admin': 'First admin set up',
  'settings.change': 'Emulator settings changed',
  'limits.change': 'Limits changed',
  'results.remove': 'Kept results removed',
  // Boards: every change of the team's boards.
  'board.create': 'Board made',
  'board.change': 'Board changed',
  'board.add': 'Added to a board',
  'board.remove': 'Removed from a board',
  'board.reorder': 'Board reordered',
  'board.delete': 'Board deleted',
  'token.create': 'API token made',
  'token.revoke': 'API token revoked',
  'token.use': 'API token used',
};

const when = (ms: number) => new Date(ms).toLocaleString();

function PeopleSection({ me, onPeople }: { me?: string; onPeople: (people: Person[]) => void }) {
  const [people, setPeople] = useState<Person[]>();
  const [error, setError] = useState('');
  const load = useCallback(() => {
    listPeople()
      .then((list) => {
        setPeople(list);
        onPeople(list);
      })
      .catch((e: Error) => setError(e.message));
  }, [onPeople]);
  useEffect(load, [load]);

  async function act(run: () => Promise<unknown>) {
    setError('');
    try {
      await run();
    } catch (e) {
      setError((e as Error).message);
    }
    load();
  }

  return (
    <AdminSection name="people" title="People">
      <ul className={hintClass}>
        {ROLES.map((role) => (
          <li key={role}>
            <span className="font-medium">{ROLE_LABELS[role]}</span>: {ROLE_SUMMARIES[role]}
          </li>
        ))}
      </ul>
      <SectionError message={error} />
      {!people ? (
        <p role="status" className={hintClass}>
          Loading…
        </p>
      ) : (
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {people.map((person) => {
            const fixed = person.source === 'local-admin';
            return (
              <li key={person.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">
                    {person.name}
                    {person.id === me && <span className={hintClass}> (you)</span>}
                  </p>
                  <p className={`${hintClass} truncate`}>
                    {[person.email, SOURCES[person.source] ?? person.source].filter(Boolean).join(' · ')}
                  </p>
                </div>
                <label className="flex items-center gap-2 text-sm">
                  <span className="sr-only">Role of {person.name}</span>
                  <select
                    value={person.role}
                    disabled={fixed}
                    className={`${inputClass} w-auto`}
                    onChange={(event) => void act(() => setRole(person.id, event.target.value as Role))}
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {ROLE_LABELS[role]}
                      </option>
                    ))}
                  </select>
                </label>
                <Button
                  size="sm"
                  variant="danger"
                  disabled={fixed}
                  title={fixed ? 'The local admin is whoever runs the console on this machine' : undefined}
                  onClick={() => {
                    if (!window.confirm(`Remove ${person.name}? Their sessions end at once.`)) return;
                    void act(() => removePerson(person.id));
                  }}
                >
                  Remove <span className="sr-only">{person.name}</span>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </AdminSection>
  );
}

function InviteSection() {
  const [role, setRole] = useState<Role>('creator');
  const [email, setEmail] = useState('');
  const [link, setLink] = useState('');
  const [error, setError] = useState('');
  async function submit(event: FormEvent) {
    event.preventDefault();
    setError('');
    try {
      const path = await createInvitation(role, email.trim() || undefined);
      setLink(`${window.location.origin}${path}`);
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return (
    <AdminSection
      name="invite"
      title="Invite someone"
      intro="A one-time link, valid for 7 days, that makes an account with a password. Send it privately."
    >
      <form onSubmit={(event) => void submit(event)} className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm">
          Role
          <select
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            className={`${inputClass} w-auto`}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm">
          E-mail (optional)
          <input
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            maxLength={254}
            className={inputClass}
          />
        </label>
        <Button type="submit" variant="primary">
          Create invitation link
        </Button>
      </form>
      <SectionError message={error} />
      {link && (
        <div className="flex flex-wrap items-center gap-2" role="status">
          <code className="min-w-0 flex-1 truncate rounded bg-zinc-100 px-2 py-1 text-xs dark:bg-zinc-800">
            {link}
          </code>
          <CopyButton text={link} label="Copy link" />
        </div>
      )}
    </AdminSection>
  );
}

function AuditSection() {
  const [entries, setEntries] = useState<AuditEntry[]>();
  const [action, setAction] = useState('');
  const [q, setQ] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => {
      readAudit(action, q)
        .then((list) => {
          setEntries(list);
          setError('');
        })
        .catch((e: Error) => setError(e.message));
    }, 200);
    return () => clearTimeout(timer);
  }, [action, q]);
  return (
    <AdminSection name="audit" title="Audit log">
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1 text-sm">
          What
          <select
            value={action}
            onChange={(e) => setAction(e.target.value)}
            className={`${inputClass} w-auto`}
          >
            <option value="">Everything</option>
            {Object.entries(ACTIONS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm">
          Who or whom
          <input type="search" value={q} onChange={(e) => setQ(e.target.value)} className={inputClass} />
        </label>
      </div>
      <SectionError message={error} />
      {entries && entries.length === 0 && <p className={hintClass}>Nothing recorded yet.</p>}
      {entries && entries.length > 0 && (
        <ol className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
          {entries.map((entry) => (
            <li key={entry.id} className="flex flex-wrap gap-x-3 py-2">
              <time className={hintClass} dateTime={new Date(entry.at).toISOString()}>
                {when(entry.at)}
              </time>
              <span className="font-medium">{entry.actorName ?? 'Someone'}</span>
              <span>{ACTIONS[entry.action] ?? entry.action}</span>
              {entry.target && <span>{entry.target}</span>}
              {entry.action === 'role.change' && entry.detail && (
                <span className={hintClass}>
                  {String(entry.detail.from)} → {String(entry.detail.to)}
                </span>
              )}
              {entry.detail?.reason !== undefined && (
                <span className={hintClass}>{String(entry.detail.reason)}</span>
              )}
            </li>
          ))}
        </ol>
      )}
    </AdminSection>
  );
}

export function PeopleScreen() {
  const { data } = useConsoleInfo();
  const [people, setPeople] = useState<Person[]>([]);
  const admin = data?.user?.role === 'admin';
  // Everyone else comes here for their own API tokens (the header's badge, the phone's menu).
  if (data && !admin)
    return (
      <div className="space-y-6">
        <h1 className="text-2xl font-semibold tracking-tight">Your API tokens</h1>
        <ApiTokensSection me={data.user?.id} everyone={false} />
        <p className={hintClass}>{needsRole('admin', 'manage people and roles')}</p>
      </div>
    );
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">People</h1>
      {data ? (
        <>
          <PeopleSection me={data.user?.id} onPeople={setPeople} />
          <ApiTokensSection me={data.user?.id} everyone />
          <LimitsSection people={people} />
          <InviteSection />
          <StorageSection />
          <FollowingSection />
          <WebhooksSection admin />
          <SharesSection />
          <AuditSection />
        </>
      ) : null}
    </div>
  );
}
