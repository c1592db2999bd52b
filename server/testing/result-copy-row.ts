// A `result_copies` row as the copy job and the result routes read it, for tests that hand one in
// without a database: a file being copied (its first attempt), everything the copy fills in unset.
import type { ResultCopyRow } from '../results/copy-rows';

export function resultCopyRow(overrides: Partial<ResultCopyRow> = {}): ResultCopyRow {
  return {
    id: 1,
    task_id: 'task-1',
    role: 'image',
    idx: 0,
    source_url: 'https://files.service.example/out.png',
    state: 'copying',
    attempts: 1,
    next_attempt_at: new Date(0),
    lease_until: null,
    store_key: null,
    size: null,
    content_type: null,
    sha256: null,
    error: null,
    created_at: new Date(0),
    updated_at: new Date(0),
    kept_at: null,
    ...overrides,
  };
}
