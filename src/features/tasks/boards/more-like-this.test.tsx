// @vitest-environment jsdom
// More like this asks first, with what it will spend as the spending limits count it, and sends
// nothing until the person says so; Cancel sends nothing at all.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { PARENT_REQUEST_HEADER } from '@/api/boards';
import { MoreLikeThisButton } from './more-like-this';

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (_url, init) =>
    init?.method === 'POST'
      ? json({ code: 0, msg: 'ok', data: { task_ids: ['img-new-1', 'img-new-2'] } })
      : json({ code: 404, msg: 'not here' }, 404),
  );
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PARAMS = { prompt: 'A red fox in the snow', generate_count: 2, aspect_ratio: '1:1' };
const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');

function renderButton() {
  const location = memoryLocation({ path: '/boards/b1', record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook}>
        <MoreLikeThisButton source={{ kind: 'image_generate', requestId: 'req-img-1', params: PARAMS }} />
      </Router>
    </QueryClientProvider>,
  );
  return location;
}

describe('More like this', () => {
  it('asks first with its cost, and Cancel sends nothing', async () => {
    const user = userEvent.setup();
    renderButton();
    await user.click(screen.getByRole('button', { name: 'More like this (2 more)…' }));
    const question = await screen.findByRole('group', { name: 'More like this' });
    expect(question).toHaveTextContent(
      'More like this sends the same request again and spends 2 tasks and 2 images.',
    );
    // The focus is on the answer, so a keyboard user hears the cost first.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Make 2 more' })).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    // The button asked again has the focus back, not the page's start.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'More like this (2 more)…' })).toHaveFocus(),
    );
    expect(posts()).toHaveLength(0);
  });

  it('two questions open at once each read their own cost', async () => {
    const user = userEvent.setup();
    renderButton();
    renderButton();
    for (const button of screen.getAllByRole('button', { name: 'More like this (2 more)…' }))
      await user.click(button);
    const answers = await screen.findAllByRole('button', { name: 'Make 2 more' });
    expect(answers).toHaveLength(2);
    const described = answers.map((answer) => answer.getAttribute('aria-describedby'));
    expect(new Set(described).size).toBe(2);
    for (const answer of answers) expect(answer).toHaveAccessibleDescription(/spends 2 tasks and 2 images/);
  });

  it('sends the same request once, linked to the first, and opens the new request', async () => {
    const user = userEvent.setup();
    const location = renderButton();
    await user.click(screen.getByRole('button', { name: 'More like this (2 more)…' }));
    await user.click(await screen.findByRole('button', { name: 'Make 2 more' }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/requests/req-img-new-1'));
    expect(posts()).toHaveLength(1);
    const [url, init] = posts()[0]!;
    expect(String(url)).toMatch(/image_generate$/);
    expect(JSON.parse(init!.body as string)).toMatchObject(PARAMS);
    expect(new Headers(init!.headers).get(PARENT_REQUEST_HEADER)).toBe('req-img-1');
  });
});
