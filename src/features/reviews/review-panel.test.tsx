// @vitest-environment jsdom
// The review panel: who decided what and when, the comments (Delete on one's own, an admin's on
// any), the decision and comment sent as the server expects, the comment's bound said by the field
// before asking (exactly at it and one past), the server's refusal by its field, and a change
// pushed by the server read again. The card's badge: the dominant decision and the comments.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REVIEW_COMMENT_MAX, type ReviewView } from '@/api/reviews';
import type { Role } from '@/api/roles';
import { testConsoleInfo, withConsoleInfo } from '@/testing/console-info';
import { ReviewBadge, totalOf } from './review-slot';
import { ReviewPanel } from './review-panel';

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const AT = Date.UTC(2026, 10, 27, 9, 30);
const REVIEW: ReviewView = {
  decisions: [
    { userId: 'u-bo', name: 'Bo', decision: 'approved', at: AT },
    { userId: 'u-vi', name: 'Vi', decision: 'changes_requested', at: AT - 60_000 },
  ],
  comments: [
    { id: 'c1', userId: 'u-bo', name: 'Bo', body: 'Lovely light', decision: 'approved', at: AT - 120_000 },
    { id: 'c2', userId: 'u-vi', name: 'Vi', body: 'Crop tighter', decision: null, at: AT - 60_000 },
  ],
};

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPanel(
  role: Role = 'viewer',
  review: unknown = { approved: 1, changesRequested: 1, comments: 2, at: AT },
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const info = testConsoleInfo({ user: { id: 'u-vi', name: 'Vi', role, source: 'local' } });
  const ui = (summary: unknown) =>
    withConsoleInfo(
      info,
      <QueryClientProvider client={client}>
        <ReviewPanel taskId="t 1" review={summary} />
      </QueryClientProvider>,
    );
  const view = render(ui(review));
  return { rerender: (summary: unknown) => view.rerender(ui(summary)) };
}

const posts = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([, init]) => JSON.parse(init!.body as string));

describe('ReviewPanel', () => {
  it('shows who decided what and when, and the comments; Delete only on my own', async () => {
    fetchMock.mockResolvedValue(json({ code: 0, msg: 'ok', data: REVIEW }));
    renderPanel();
    const decisions = await screen.findByRole('region', { name: 'Decisions' });
    const items = within(decisions).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^BoApproved.*2026/),
      expect.stringMatching(/^ViChanges requested.*2026/),
    ]);
    expect(within(items[0]!).getByText(/2026/).getAttribute('datetime')).toBe(new Date(AT).toISOString());
    const comments = screen.getByRole('region', { name: 'Comments' });
    expect(within(comments).getByText('Lovely light')).toBeInTheDocument();
    expect(
      within(comments)
        .getAllByRole('button', { name: /Delete/ })
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Delete your comment']);
    // My current decision is the one chosen.
    expect(screen.getByRole('radio', { name: 'Changes requested' })).toBeChecked();
    expect(fetchMock.mock.calls[0]![0]).toBe('/__console/reviews/t%201');
  });

  it("lets an admin delete anyone's comment, and shows the review the server answers", async () => {
    fetchMock.mockImplementation(async (_url, init) =>
      json({
        code: 0,
        msg: 'ok',
        data: init?.method === 'DELETE' ? { ...REVIEW, comments: REVIEW.comments.slice(1) } : REVIEW,
      }),
    );
    renderPanel('admin');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Bo’s comment' }));
    await waitFor(() => expect(screen.queryByText('Lovely light')).not.toBeInTheDocument());
    const deletion = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE')!;
    expect(deletion[0]).toBe('/__console/reviews/t%201/comments/c1');
  });

  it('sends a decision with a comment, and a decision alone when only it changed', async () => {
    fetchMock.mockImplementation(async () =>
      json({ code: 0, msg: 'ok', data: { decisions: [], comments: [] } }),
    );
    renderPanel();
    await userEvent.click(await screen.findByRole('radio', { name: 'Approved' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Comment' }), { target: { value: 'Good now' } });
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(posts()).toEqual([{ decision: 'approved', comment: 'Good now' }]));
    // The answer has no decision of mine: "No decision" is now chosen; picking one sends it alone.
    await waitFor(() => expect(screen.getByRole('radio', { name: 'No decision' })).toBeChecked());
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveValue('');
    await userEvent.click(screen.getByRole('radio', { name: 'Changes requested' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(posts()[1]).toEqual({ decision: 'changes_requested' }));
  });

  it('clears my decision with "No decision"', async () => {
    fetchMock.mockImplementation(async () => json({ code: 0, msg: 'ok', data: REVIEW }));
    renderPanel();
    await userEvent.click(await screen.findByRole('radio', { name: 'No decision' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(posts()).toEqual([{ decision: null }]));
  });

  it(`takes a comment of exactly ${REVIEW_COMMENT_MAX} characters and says so next to the field one past it`, async () => {
    fetchMock.mockImplementation(async () =>
      json({ code: 0, msg: 'ok', data: { decisions: [], comments: [] } }),
    );
    renderPanel();
    const box = await screen.findByRole('textbox', { name: 'Comment' });
    fireEvent.change(box, { target: { value: 'é'.repeat(REVIEW_COMMENT_MAX + 1) } });
    expect(
      screen.getByText(
        `${REVIEW_COMMENT_MAX + 1} / ${REVIEW_COMMENT_MAX} characters. Optional with a decision.`,
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription(`A comment is at most ${REVIEW_COMMENT_MAX} characters`);
    expect(posts()).toEqual([]);
    fireEvent.change(box, { target: { value: 'é'.repeat(REVIEW_COMMENT_MAX) } });
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(posts()).toEqual([{ comment: 'é'.repeat(REVIEW_COMMENT_MAX) }]));
  });

  it('asks for a comment or a decision before sending nothing, and shows a refusal by its field', async () => {
    fetchMock.mockImplementation(async (_url, init) =>
      init?.method === 'POST'
        ? json(
            {
              code: 400,
              msg: 'This result has as many comments as it can keep: delete some first',
              field: 'comment',
            },
            400,
          )
        : json({ code: 0, msg: 'ok', data: { decisions: [], comments: [] } }),
    );
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Send' }));
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveAccessibleDescription(
      'Write a comment or choose a decision',
    );
    expect(posts()).toEqual([]);
    fireEvent.change(screen.getByRole('textbox', { name: 'Comment' }), { target: { value: 'One more' } });
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveAccessibleDescription(
        'This result has as many comments as it can keep: delete some first',
      ),
    );
    // What was typed stays, to be sent again.
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveValue('One more');
  });

  it("reads the review again when the task's pushed summary changes", async () => {
    fetchMock.mockResolvedValue(json({ code: 0, msg: 'ok', data: { decisions: [], comments: [] } }));
    const panel = renderPanel('viewer', null);
    await screen.findByText('Nobody has decided yet.');
    fetchMock.mockResolvedValue(json({ code: 0, msg: 'ok', data: REVIEW }));
    panel.rerender({ approved: 1, changesRequested: 1, comments: 2, at: AT });
    expect(await screen.findByText('Crop tighter')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('ReviewBadge', () => {
  it('says "Changes requested" before "Approved", with how many, and the comments', () => {
    const summary = (approved: number, changesRequested: number, comments: number) => ({
      approved,
      changesRequested,
      comments,
      at: AT,
    });
    const { container, rerender } = render(
      <ReviewBadge reviews={[summary(2, 1, 1), undefined, summary(0, 1, 2)]} />,
    );
    expect(container.textContent).toBe('Changes requested · 23 comments');
    rerender(<ReviewBadge reviews={[summary(1, 0, 0)]} />);
    expect(container.textContent).toBe('Approved');
    rerender(<ReviewBadge reviews={[undefined, 'not a summary']} />);
    expect(container.textContent).toBe('');
    expect(totalOf([summary(1, 0, 1), summary(0, 0, 1)])).toEqual({
      approved: 1,
      changesRequested: 0,
      comments: 2,
    });
  });
});
