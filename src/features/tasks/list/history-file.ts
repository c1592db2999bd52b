// Writing this browser's task history to a file and reading one back, for the Tasks screen's More
// menu (./history-actions.tsx loads this on the first export or import). The file format's schema
// (zod) comes with history-transfer.
import { exportHistory, importHistory } from '@/features/tasks/history/history-transfer';

export async function downloadHistory(): Promise<void> {
  const text = await exportHistory();
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `task-history-${new Date().toISOString().slice(0, 10)}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Reads a history file into this browser's history; what happened, in words. */
export async function importHistoryFile(file: File): Promise<{ tone: 'ok' | 'error'; text: string }> {
  try {
    const outcome = await importHistory(await file.text());
    const rejected = outcome.rejected
      ? ` Skipped ${outcome.rejected} invalid entr${outcome.rejected === 1 ? 'y' : 'ies'} (${outcome.problems.join('; ')}).`
      : '';
    return {
      tone: 'ok',
      text: `Imported: ${outcome.added} new, ${outcome.updated} updated, ${outcome.unchanged} unchanged.${rejected}`,
    };
  } catch (error) {
    return { tone: 'error', text: `Import failed: ${(error as Error).message}` };
  }
}
