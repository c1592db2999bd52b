// Personal API tokens on the People screen: everyone makes and revokes their own; admins also see
// and revoke everyone's. A new token is shown once, here, and never again (the server keeps its
// hash only: server/identity/api-tokens.ts). The fields are checked with the server's bounds
// (src/api/api-token-rules.ts); the server's refusal, if any, shows by the form.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  API_TOKEN_PREFIX,
  TOKEN_DAYS_MAX,
  TOKEN_DAYS_MIN,
  TOKEN_NAME_MAX,
  TOKENS_PER_PERSON_MAX,
} from '@/api/api-token-rules';
import type { CreatedToken, TokenView } from '@/api/api-tokens';
import { Button } from '@/components/ui/core/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Field } from '@/components/ui/field';
import { hintClass, inputClass } from '@/components/ui/styles';
import { AdminSection, SectionError } from './admin-section';
import { createToken, listTokens, revokeToken } from './admin-api';

const DEFAULT_DAYS = 30;

/** What is wrong with the fields, by field, in the words the server would use. */
export function tokenFieldProblems(name: string, days: string): { name?: string; days?: string } {
  const problems: { name?: string; days?: string } = {};
  const trimmed = name.trim();
  if (!trimmed) problems.name = 'Give the token a name';
  else if (trimmed.length > TOKEN_NAME_MAX)
    problems.name = `A token's name is at most ${TOKEN_NAME_MAX} characters`;
  const n = Number(days);
  if (days.trim() === '' || !Number.isInteger(n)) problems.days = 'Enter a whole number of days';
  else if (n < TOKEN_DAYS_MIN) problems.days = `A token lasts at least ${TOKEN_DAYS_MIN} day`;
  else if (n > TOKEN_DAYS_MAX) problems.days = `A token lasts at most ${TOKEN_DAYS_MAX} days`;
  return problems;
}

const day = (ms: number) => new Date(ms).toLocaleDateString(undefined, { dateStyle: 'medium' });

function stateOf(token: TokenView, now: number): 'Active' | 'Expired' | 'Revoked' {
  if (token.revokedAt !== null) return 'Revoked';
  return token.expiresAt <= now ? 'Expired' : 'Active';
}

const STATE_CLASS = {
  Active: 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  Expired: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  Revoked: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
} as const;

export function ApiTokensSection({ me, everyone }: { me?: string; everyone: boolean }) {
  // The list and when it was read: a token's state (active, expired) is as of then.
  const [list, setList] = useState<{ tokens: TokenView[]; at: number }>();
  const tokens = list?.tokens;
  const [listError, setListError] = useState('');
  const [name, setName] = useState('');
  const [days, setDays] = useState(String(DEFAULT_DAYS));
  const [problems, setProblems] = useState<{ name?: string; days?: string }>({});
  const [formError, setFormError] = useState('');
  const [created, setCreated] = useState<CreatedToken>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    listTokens(everyone)
      .then((tokens) => {
        setList({ tokens, at: Date.now() });
        setListError('');
      })
      .catch((e: Error) => setListError(e.message));
  }, [everyone]);
  useEffect(load, [load]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError('');
    const found = tokenFieldProblems(name, days);
    setProblems(found);
    if (found.name || found.days) return;
    setBusy(true);
    try {
      const made = await createToken(name.trim(), Number(days));
      setCreated(made);
      setName('');
      setDays(String(DEFAULT_DAYS));
      load();
    } catch (e) {
      setFormError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function revoke(token: TokenView) {
    const whose = token.userId === me ? '' : ` of ${token.personName}`;
    if (!window.confirm(`Revoke the token “${token.name}”${whose}? Scripts using it stop at once.`)) return;
    try {
      await revokeToken(token.id);
      if (created?.id === token.id) setCreated(undefined);
    } catch (e) {
      setListError((e as Error).message);
    }
    load();
  }

  const now = list?.at ?? 0;
  return (
    <AdminSection
      name="api-tokens"
      title="API tokens"
      anchor="api-tokens"
      spacing={4}
      intro={
        <>
          A script calls the console with <code>Authorization: Bearer {API_TOKEN_PREFIX}…</code> and acts as
          you: your role, your limits, your name on what it makes. At most {TOKENS_PER_PERSON_MAX} at once.
          The API is described at{' '}
          <a
            className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
            href="/__console/openapi.json"
          >
            /__console/openapi.json
          </a>
          .
        </>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-wrap items-start gap-3">
        <Field
          label="Token name"
          error={problems.name}
          hint="What runs with it, e.g. “nightly batch”"
          className="min-w-48 flex-1"
        >
          {(control) => (
            <input
              {...control}
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoComplete="off"
              className={inputClass}
            />
          )}
        </Field>
        <Field
          label="Expires in (days)"
          error={problems.days}
          hint={`${TOKEN_DAYS_MIN} to ${TOKEN_DAYS_MAX}`}
          className="w-40"
        >
          {(control) => (
            <input
              {...control}
              type="number"
              inputMode="numeric"
              min={TOKEN_DAYS_MIN}
              max={TOKEN_DAYS_MAX}
              step={1}
              value={days}
              onChange={(e) => setDays(e.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <Button type="submit" variant="primary" disabled={busy} className="sm:mt-6.5">
          Create token
        </Button>
      </form>
      <SectionError message={formError} />

      {created && (
        <div
          role="status"
          className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950"
        >
          <p className="font-medium text-amber-900 dark:text-amber-100">
            Copy the token “{created.name}” now: it is not shown again.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code
              aria-label="New API token"
              className="min-w-0 flex-1 rounded bg-white px-2 py-1 font-mono text-xs break-all dark:bg-zinc-900"
            >
              {created.token}
            </code>
            <CopyButton text={created.token} label="Copy token" />
          </div>
          <p className={hintClass}>Expires {day(created.expiresAt)}.</p>
        </div>
      )}

      <SectionError message={listError} />
      {!tokens ? (
        <p role="status" className={hintClass}>
          Loading…
        </p>
      ) : tokens.length === 0 ? (
        <p className={hintClass}>{everyone ? 'Nobody has made a token yet.' : 'You have no API tokens.'}</p>
      ) : (
        <ul
          aria-label={everyone ? "Everyone's API tokens" : 'Your API tokens'}
          className="divide-y divide-zinc-200 dark:divide-zinc-800"
        >
          {tokens.map((token) => {
            const state = stateOf(token, now);
            return (
              <li key={token.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="truncate font-medium">{token.name}</span>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATE_CLASS[state]}`}>
                      {state}
                    </span>
                  </p>
                  <p className={hintClass}>
                    {[
                      everyone && (token.userId === me ? `${token.personName} (you)` : token.personName),
                      `made ${day(token.createdAt)}`,
                      state === 'Revoked'
                        ? `revoked ${day(token.revokedAt!)}`
                        : `${state === 'Expired' ? 'expired' : 'expires'} ${day(token.expiresAt)}`,
                      token.lastUsedAt ? `last used ${day(token.lastUsedAt)}` : 'never used',
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                </div>
                {state === 'Active' && (
                  <Button size="sm" variant="danger" onClick={() => void revoke(token)}>
                    Revoke <span className="sr-only">{token.name}</span>
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </AdminSection>
  );
}
