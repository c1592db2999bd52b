// Test-only helpers shared by the form component tests: a fresh QueryClient per render and a fetch
// stub that answers the console's own endpoints and lets each test script the creation endpoint.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { testConsoleInfo } from './console-info';
import { consoleInfoQuery, type ConsoleInfo } from '@/api/console-info';

export const envelope = (data: unknown, code = 0, msg = 'ok', status = 200) =>
  new Response(JSON.stringify({ code, msg, data }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

export interface FetchStubOptions {
  /** Answers POSTs; defaults to a success with one task. */
  create?: (body: unknown, url: string) => Response | Promise<Response>;
  /** GET /v1/video_translate/target_languages; undefined answers 404 (not offered). */
  languages?: string[];
}

export function stubFetch(options: FetchStubOptions = {}) {
  const posts: { url: string; body: unknown }[] = [];
  const fetchSpy = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input);
    if (init?.method === 'POST') {
      const body: unknown = JSON.parse(String(init.body));
      posts.push({ url, body });
      return options.create ? options.create(body, url) : envelope({ task_ids: ['i2is-test-1'] });
    }
    if (url.endsWith('/target_languages')) {
      return options.languages
        ? envelope(options.languages)
        : new Response('404 page not found', { status: 404 });
    }
    return new Response('not found', { status: 404 });
  });
  vi.stubGlobal('fetch', fetchSpy);
  return { fetchSpy, posts };
}

export function renderWithClient(ui: ReactNode, info: ConsoleInfo = testConsoleInfo()) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  client.setQueryData(consoleInfoQuery.queryKey, info);
  const result = render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
  return { ...result, client };
}

/** A promise the test resolves by hand, to hold a request in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
