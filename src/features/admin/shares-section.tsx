// Admins on the People screen: every live share link of the team, what it shows and who made it,
// how often it was opened, and Revoke. The rows are the share dialog's (loaded with this section).
import { useCallback, useEffect, useState } from 'react';
import type { ShareSummary } from '@/api/shares';
import { ShareRow } from '@/features/shares/share-dialog';
import { listShares } from '@/features/shares/shares-api';
import { AdminSection, SectionError } from './admin-section';

export function SharesSection() {
  const [links, setLinks] = useState<ShareSummary[]>();
  const [error, setError] = useState('');
  const load = useCallback(() => {
    listShares()
      .then((list) => {
        setLinks(list);
        setError('');
      })
      .catch((e: Error) => setError(e.message));
  }, []);
  useEffect(load, [load]);
  return (
    <AdminSection
      name="shares"
      title="Share links"
      anchor="shares"
      intro="Live links to boards and requests, for people with no account. Creators share from a board’s or a request’s page; you can revoke any link here."
    >
      <SectionError message={error} />
      {links && !links.length && <p className="text-sm text-zinc-600 dark:text-zinc-400">No live links.</p>}
      {links && links.length > 0 && (
        <ul
          aria-label="Live share links"
          className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {links.map((link) => (
            <ShareRow key={link.id} link={link} onRevoked={load} showTitle />
          ))}
        </ul>
      )}
    </AdminSection>
  );
}
