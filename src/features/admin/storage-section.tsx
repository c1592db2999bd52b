// Admins, on the People screen: what the team's storage holds (kept result files, in total, per
// kind of task, per person) and what is still waiting to be copied or could not be kept
// (`GET /__console/storage`, server/results/usage.ts).
import { useEffect, useState } from 'react';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { hintClass } from '@/components/ui/styles';
import { AdminSection, SectionError } from './admin-section';
import { readStorage, type StorageLine as Line, type StorageUsage as Usage } from './admin-api';

const STORES: Record<string, string> = { disk: 'on this server’s disk', s3: 'in the S3 bucket' };

export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : Number(value.toFixed(value < 10 ? 1 : 0))} ${units[unit]}`;
}

const files = (count: number) => `${count.toLocaleString()} ${count === 1 ? 'file' : 'files'}`;

function Breakdown({ title, rows }: { title: string; rows: { label: string; line: Line }[] }) {
  if (rows.length === 0) return null;
  return (
    <div className="min-w-0 flex-1 basis-56">
      <h3 className="mb-1 text-sm font-medium">{title}</h3>
      <table className="w-full text-sm">
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {rows.map(({ label, line }) => (
            <tr key={label}>
              <th scope="row" className="truncate py-1 pr-2 text-left font-normal">
                {label}
              </th>
              <td className={`${hintClass} py-1 pr-2 text-right whitespace-nowrap`}>{files(line.files)}</td>
              <td className="py-1 text-right font-medium whitespace-nowrap tabular-nums">
                {formatSize(line.bytes)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function StorageSection() {
  const [usage, setUsage] = useState<Usage>();
  const [error, setError] = useState('');
  useEffect(() => {
    readStorage()
      .then(setUsage)
      .catch((e: Error) => setError(e.message));
  }, []);
  const waiting = usage ? usage.states.queued + usage.states.copying : 0;
  const lost = usage ? usage.states.failed + usage.states.expired : 0;
  return (
    <AdminSection name="storage" title="Result storage">
      <SectionError message={error} />
      {usage && (
        <>
          <p className="text-sm">
            <span className="text-base font-semibold">{formatSize(usage.kept.bytes)}</span> kept{' '}
            {STORES[usage.store] ?? `(${usage.store})`}, {files(usage.kept.files)}.{' '}
            <span className={hintClass}>
              {waiting ? `${files(waiting)} waiting to be copied` : 'Nothing waiting to be copied'}
              {lost > 0 && `; ${files(lost)} could not be kept`}.
            </span>
          </p>
          <div className="flex flex-wrap gap-x-8 gap-y-4">
            <Breakdown
              title="By kind"
              rows={usage.byKind.map((row) => ({
                label: TASK_TYPE_LABELS[row.kind as keyof typeof TASK_TYPE_LABELS] ?? row.kind,
                line: row,
              }))}
            />
            <Breakdown
              title="By person"
              rows={usage.byPerson.map((row) => ({ label: row.creator ?? 'Not recorded', line: row }))}
            />
          </div>
        </>
      )}
    </AdminSection>
  );
}
