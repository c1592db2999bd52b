// Test-only helpers shared by the form component tests: a fresh QueryClient per render, and a fetch
// that answers with the emulator's own app, the one fake of the service (dev, end-to-end tests and
// the benchmark use it too). A test may script one endpoint's answer to reach a failure the
// emulator does not produce on request (a given msg, a held request).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReactNode } from 'react';
import { onTestFinished, vi } from 'vitest';
import { createEmulator } from '../../server/emulator/app';
import type { EmulatorOptions } from '../../server/emulator/options';
import { testConsoleInfo, withConsoleInfo } from './console-info';
import type { ConsoleInfo } from '@/api/console-info';

export const envelope = (data: unknown, code = 0, msg = 'ok', status = 200) =>
  new Response(JSON.stringify({ code, msg, data }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** The smallest PNG: what every reference image "downloads" as, so the emulator accepts it. */
const PNG_1X1 = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='),
  (c) => c.charCodeAt(0),
);

export interface FetchStubOptions {
  /** Scripts the answer to POSTs instead of the emulator's. */
  create?: (body: unknown, url: string) => Response | Promise<Response>;
  /** Scripts GET /v1/video_translate/target_languages instead of the emulator's list. */
  languages?: string[];
  /** Emulator options, e.g. `disabled: ['target_languages']` for a backend without the endpoint. */
  emulator?: Partial<EmulatorOptions>;
}

export function stubFetch(options: FetchStubOptions = {}) {
  // Uploads land in a folder of the test's own (made on the first one), never the checkout's ./data.
  const dataDir = join(tmpdir(), `media-console-form-test-${randomUUID()}`);
  const emulator = createEmulator({
    timeScale: 0.01,
    log: () => {},
    dataDir,
    // The emulator downloads reference images; here every one is a valid PNG.
    fetch: async () => new Response(PNG_1X1, { headers: { 'content-type': 'image/png' } }),
    ...options.emulator,
  });
  onTestFinished(async () => {
    await emulator.close();
    // An upload refused mid-stream may still be closing its file: tried again rather than failed.
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });
  const posts: { url: string; body: unknown }[] = [];
  /** Task ids the creation answers returned, in order. */
  const created: string[] = [];
  const fetchSpy = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://console.test');
    if (init?.method === 'POST') {
      posts.push({ url: url.pathname, body: JSON.parse(String(init.body)) as unknown });
      if (options.create) return options.create(posts.at(-1)!.body, url.pathname);
    }
    if (options.languages && url.pathname.endsWith('/target_languages')) return envelope(options.languages);
    const answer = await emulator.app.fetch(
      new Request(url, { ...init, headers: { ...init?.headers, authorization: 'Bearer test' } }),
    );
    if (init?.method === 'POST') created.push(...createdIds(await answer.clone().json()));
    return answer;
  });
  vi.stubGlobal('fetch', fetchSpy);
  return { fetchSpy, posts, created, emulator };
}

function createdIds(body: unknown): string[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (Array.isArray(data)) return data.map((item) => String((item as { task_id?: unknown }).task_id));
  const ids = (data as { task_ids?: unknown } | undefined)?.task_ids;
  return Array.isArray(ids) ? ids.map(String) : [];
}

export function renderWithClient(ui: ReactNode, info: ConsoleInfo = testConsoleInfo()) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const result = render(
    withConsoleInfo(info, <QueryClientProvider client={client}>{ui}</QueryClientProvider>),
  );
  return { ...result, client };
}

/** A promise the test resolves by hand, to hold a request in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
