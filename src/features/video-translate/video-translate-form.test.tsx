// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_INBOX } from '@/api/schemas';
import { testConsoleInfo } from '@/testing/console-info';
import type { ConsoleInfo } from '@/api/console-info';
import {
  deferred,
  envelope,
  renderWithClient,
  stubFetch,
  type FetchStubOptions,
} from '@/testing/form-test-utils';
import { getTask } from '@/features/tasks/history/history';
import { TargetLanguagesContext, targetLanguagesOnce } from './use-create-translations';
import { fillForm } from '@/forms/prefill';
import { VIDEO_DRAFT_KEY, VideoTranslateForm } from './video-translate-form';

const DRAFT = `media-console:draft:${VIDEO_DRAFT_KEY}`;
const VIDEO = 'https://example.com/talk.mp4';
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function setup(options: FetchStubOptions = {}, info?: ConsoleInfo) {
  const stub = stubFetch(options);
  const user = userEvent.setup();
  // Each form asks the stubbed backend for its languages afresh, as on a new page.
  const view = renderWithClient(
    <TargetLanguagesContext value={targetLanguagesOnce()}>
      <VideoTranslateForm />
    </TargetLanguagesContext>,
    info,
  );
  const submit = () => user.click(screen.getByRole('button', { name: 'Translate video' }));
  const languages = () => screen.getByRole('group', { name: 'Target languages' });
  const pick = (name: string) => user.click(within(languages()).getByRole('checkbox', { name }));
  return { ...stub, ...view, user, submit, languages, pick };
}

const fill = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });
const videoUrl = () => screen.getByRole('textbox', { name: 'Video URL' });

/** A valid form: one language and a video URL. */
async function fillValid(ctx: ReturnType<typeof setup>) {
  await ctx.pick('Japanese');
  fill(videoUrl(), VIDEO);
}

describe('target languages', () => {
  it('offers the built-in list when the backend has no language endpoint', async () => {
    const { languages } = setup({ emulator: { disabled: ['target_languages'] } });
    expect(await screen.findByText(/This backend does not list its languages/)).toBeInTheDocument();
    expect(within(languages()).getByRole('checkbox', { name: 'English' })).toBeInTheDocument();
  });

  it('offers the service list when the backend answers it', async () => {
    const { languages } = setup({ languages: ['English', 'Klingon'] });
    expect(await within(languages()).findByRole('checkbox', { name: 'Klingon' })).toBeInTheDocument();
    expect(within(languages()).queryByRole('checkbox', { name: 'Thai' })).not.toBeInTheDocument();
  });

  it('requires at least one and focuses the group', async () => {
    const { submit, posts, languages } = setup();
    fill(videoUrl(), VIDEO);
    await submit();
    expect(await screen.findByText('Choose at least one target language')).toBeInTheDocument();
    expect(within(languages()).getAllByRole('checkbox')[0]).toHaveFocus();
    expect(posts).toHaveLength(0);
  });

  it('adds a custom language with Enter and sends one task per language', async () => {
    const { user, submit, posts, created, pick, languages } = setup();
    await pick('English');
    await user.type(screen.getByRole('textbox', { name: 'Another language' }), 'Dutch{Enter}');
    expect(within(languages()).getByRole('checkbox', { name: 'Dutch' })).toBeChecked();
    fill(videoUrl(), VIDEO);
    await submit();
    const panel = await screen.findByRole('region', { name: '2 translation tasks created' });
    expect(posts[0]!.body).toMatchObject({ target_languages: ['English', 'Dutch'] });
    const dutch = created[1]!;
    expect(within(panel).getByRole('link', { name: dutch })).toHaveAttribute('href', `/tasks/${dutch}`);
    expect(within(panel).getByText('Dutch')).toBeInTheDocument();
    expect(await getTask(dutch)).toMatchObject({
      kind: 'video_translate',
      language: 'Dutch',
      source: 'created',
    });
  });
});

describe('video URL', () => {
  it.each(['', 'ftp://example.com/a.mp4', 'javascript:alert(1)', 'example.com/a.mp4'])(
    'refuses %j',
    async (url) => {
      const ctx = setup();
      await ctx.pick('English');
      fill(videoUrl(), url);
      await ctx.submit();
      expect(await screen.findByText('Video URL must be an http:// or https:// URL')).toBeInTheDocument();
      expect(videoUrl()).toHaveFocus();
      expect(ctx.posts).toHaveLength(0);
    },
  );

  it('shows its error next to the field on blur, before any submit', async () => {
    const { user, posts } = setup();
    const input = videoUrl();
    await user.type(input, 'example.com/talk.mp4');
    expect(input).not.toHaveAttribute('aria-invalid');
    await user.tab();
    expect(input).not.toHaveFocus();
    expect(await screen.findByText('Video URL must be an http:// or https:// URL')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(
      expect.stringContaining('Video URL must be an http:// or https:// URL'),
    );
    expect(posts).toHaveLength(0);
    // Corrected and left again (before any submit, validation runs on blur), the message goes.
    await user.clear(input);
    await user.type(input, VIDEO);
    await user.tab();
    expect(screen.queryByText('Video URL must be an http:// or https:// URL')).not.toBeInTheDocument();
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('previews http(s) videos only', async () => {
    const { container } = setup();
    // The preview waits for typing to pause (a timer): fake time runs that pause out, for the
    // refused URL and then, as a control, for one that shows.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fill(videoUrl(), 'javascript:alert(1)');
      act(() => vi.advanceTimersByTime(5_000));
      expect(container.querySelector('video')).toBeNull();
      fill(videoUrl(), VIDEO);
      act(() => vi.advanceTimersByTime(5_000));
      expect(container.querySelector('video')).toHaveAttribute('src', VIDEO);
      expect(container.querySelector('video')).toHaveAttribute('preload', 'metadata');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('number of speakers', () => {
  it('refuses -1', async () => {
    const ctx = setup();
    await fillValid(ctx);
    const input = screen.getByRole('spinbutton', { name: 'Number of speakers' });
    fill(input, '-1');
    await ctx.submit();
    expect(
      await within(screen.getByRole('form')).findByText('Number of speakers must be at least 0'),
    ).toBeInTheDocument();
    expect(input).toHaveFocus();
    expect(ctx.posts).toHaveLength(0);
  });

  it('sends 0 (detect automatically)', async () => {
    const ctx = setup();
    await fillValid(ctx);
    fill(screen.getByRole('spinbutton', { name: 'Number of speakers' }), '0');
    await ctx.submit();
    await waitFor(() => expect(ctx.posts).toHaveLength(1));
    expect(ctx.posts[0]!.body).toMatchObject({ speaker_num: 0 });
  });
});

describe('video name', () => {
  it('sends 99 characters and previews the output name', async () => {
    const ctx = setup();
    await fillValid(ctx);
    const name = 'n'.repeat(99);
    fill(screen.getByRole('textbox', { name: /Video name/ }), name);
    expect(screen.getByText(`Japanese-${name}`)).toBeInTheDocument();
    expect(screen.getByText('99 / 99')).toBeInTheDocument();
    await ctx.submit();
    await waitFor(() => expect(ctx.posts).toHaveLength(1));
    expect(ctx.posts[0]!.body).toMatchObject({ name });
  });

  it('refuses 100 characters', async () => {
    const ctx = setup();
    await fillValid(ctx);
    const input = screen.getByRole('textbox', { name: /Video name/ });
    fill(input, 'n'.repeat(100));
    await ctx.submit();
    expect(await screen.findByText('Video name must be fewer than 100 characters')).toBeInTheDocument();
    expect(input).toHaveFocus();
    expect(ctx.posts).toHaveLength(0);
  });

  it('without a name previews <language>-videoTranslate-<unix seconds> and sends no name', async () => {
    const ctx = setup();
    await fillValid(ctx);
    expect(screen.getByText(/^Japanese-videoTranslate-\d{10}$/)).toBeInTheDocument();
    await ctx.submit();
    await waitFor(() => expect(ctx.posts).toHaveLength(1));
    expect(ctx.posts[0]!.body).not.toHaveProperty('name');
  });
});

describe('switches and defaults', () => {
  it('explains each switch in one line, read as its description', () => {
    setup();
    const cases = [
      ['Translate audio only', 'Only the speech track is translated; faces are left as they are.'],
      [
        'Dynamic duration',
        'Stretches or shortens segments so dialogue flows across languages of different speaking speeds.',
      ],
      ['Generate captions', 'Also produces a caption file for each language.'],
    ] as const;
    for (const [name, description] of cases) {
      expect(screen.getByRole('switch', { name })).toHaveAccessibleDescription(description);
      expect(screen.getByText(description)).toBeVisible();
    }
  });

  it('sends the provider defaults, then each switch flipped', async () => {
    const ctx = setup();
    await fillValid(ctx);
    await ctx.submit();
    await waitFor(() => expect(ctx.posts).toHaveLength(1));
    expect(ctx.posts[0]!.body).toEqual({
      target_languages: ['Japanese'],
      video_url: VIDEO,
      speaker_num: 1,
      translate_audio_only: true,
      enable_dynamic_duration: true,
      enable_caption: false,
    });
    for (const name of ['Translate audio only', 'Dynamic duration', 'Generate captions']) {
      await ctx.user.click(screen.getByRole('switch', { name }));
    }
    await ctx.submit();
    await waitFor(() => expect(ctx.posts).toHaveLength(2));
    expect(ctx.posts[1]!.body).toMatchObject({
      translate_audio_only: false,
      enable_dynamic_duration: false,
      enable_caption: true,
    });
  });
});

describe('callback URL', () => {
  // The secret-free description /__console/config sends (the secret never reaches a browser).
  const info = testConsoleInfo({
    callbackAddress: 'http://127.0.0.1:5173/callbacks/…',
    callbackUrlReachable: true,
  });

  /** The callback URL waits under "Advanced", closed unless it holds a URL the user set. */
  const advanced = () => screen.getByRole('button', { name: /Advanced/ });
  async function openAdvanced(user: ReturnType<typeof userEvent.setup>) {
    await user.click(advanced());
    expect(advanced()).toHaveAttribute('aria-expanded', 'true');
    return screen.getByRole('textbox', { name: /Callback URL/ });
  }

  it('folds under Advanced, closed by default while it holds the inbox', async () => {
    const ctx = setup({}, info);
    await waitFor(() => expect(advanced()).toHaveTextContent('this console’s inbox'));
    expect(advanced()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('textbox', { name: /Callback URL/ })).toBeNull();
    const input = await openAdvanced(ctx.user);
    expect(input).toHaveValue(info.callbackAddress);
    expect(document.getElementById(advanced().getAttribute('aria-controls')!)).toContainElement(input);
    await ctx.user.click(advanced());
    expect(advanced()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('textbox', { name: /Callback URL/ })).toBeNull();
  });

  it('is prefilled with the console inbox and explains reachability', async () => {
    const ctx = setup({}, info);
    const input = await openAdvanced(ctx.user);
    await waitFor(() => expect(input).toHaveValue(info.callbackAddress));
    expect(input).toHaveAccessibleDescription(expect.stringContaining('must be able to reach it'));
    await fillValid(ctx);
    await ctx.submit();
    await waitFor(() => expect(ctx.posts).toHaveLength(1));
    // The address carries the inbox secret: the browser sends the marker, the server the address.
    expect(ctx.posts[0]!.body).toMatchObject({ callback_url: CONSOLE_INBOX });
  });

  it('never stores the inbox address (with its secret) in the draft or the task history', async () => {
    const ctx = setup(
      { create: () => envelope([{ task_id: 'vt-secret-check', language: 'Japanese' }]) },
      info,
    );
    const input = await openAdvanced(ctx.user);
    await waitFor(() => expect(input).toHaveValue(info.callbackAddress));
    await fillValid(ctx);
    window.dispatchEvent(new Event('pagehide'));
    expect(localStorage.getItem(DRAFT)).toContain(CONSOLE_INBOX);
    await ctx.submit();
    await screen.findByRole('link', { name: 'vt-secret-check' });
    const record = await getTask('vt-secret-check');
    expect(JSON.stringify(record)).toContain(CONSOLE_INBOX);
    for (const stored of [JSON.stringify(record), JSON.stringify({ ...localStorage })])
      expect(stored).not.toContain(info.callbackAddress!);
  });

  it('turns the inbox address typed or pasted by hand into the marker too', async () => {
    const ctx = setup({}, info);
    const input = await openAdvanced(ctx.user);
    await waitFor(() => expect(input).toHaveValue(info.callbackAddress));
    fill(input, 'https://hooks.example.com/x');
    expect(screen.getByRole('button', { name: 'Use this console’s inbox' })).toBeInTheDocument();
    fill(input, info.callbackAddress!);
    await fillValid(ctx);
    await ctx.submit();
    await waitFor(() => expect(ctx.posts).toHaveLength(1));
    expect(ctx.posts[0]!.body).toMatchObject({ callback_url: CONSOLE_INBOX });
  });

  it('does not overwrite a URL the user typed (restored draft)', async () => {
    localStorage.setItem(DRAFT, JSON.stringify({ callback_url: 'https://hooks.example.com/x' }));
    setup({}, info);
    // Open from the start: it holds a value the user set.
    expect(advanced()).toHaveAttribute('aria-expanded', 'true');
    const input = screen.getByRole('textbox', { name: /Callback URL/ });
    // The button offering the inbox shows once the console's inbox address is known: only from then
    // on could a prefill have overwritten the draft.
    expect(await screen.findByRole('button', { name: 'Use this console’s inbox' })).toBeInTheDocument();
    expect(input).toHaveValue('https://hooks.example.com/x');
  });

  it('refuses a non-http URL', async () => {
    const ctx = setup();
    await fillValid(ctx);
    fill(await openAdvanced(ctx.user), 'ftp://hooks.example.com');
    await ctx.submit();
    expect(await screen.findByText('Callback URL must be an http:// or https:// URL')).toBeInTheDocument();
    expect(ctx.posts).toHaveLength(0);
  });

  it('opens again on a refusal after the user closed it, with the focus on the field', async () => {
    const ctx = setup();
    await fillValid(ctx);
    fill(await openAdvanced(ctx.user), 'ftp://hooks.example.com');
    await ctx.user.click(advanced());
    expect(advanced()).toHaveAttribute('aria-expanded', 'false');
    await ctx.submit();
    expect(await screen.findByText('Callback URL must be an http:// or https:// URL')).toBeInTheDocument();
    expect(advanced()).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Callback URL/ })).toHaveFocus());
    expect(ctx.posts).toHaveLength(0);
  });
});

describe('server errors, double submit, drafts', () => {
  it('puts a 100002 on speaker_num', async () => {
    const ctx = setup({
      create: () => envelope(null, 100002, 'speaker_num should be [0,2147483647], current: -1', 400),
    });
    await fillValid(ctx);
    await ctx.submit();
    const input = screen.getByRole('spinbutton', { name: 'Number of speakers' });
    await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
    expect(input).toHaveAccessibleDescription(
      expect.stringContaining('speaker_num should be [0,2147483647], current: -1'),
    );
    expect(input).toHaveFocus();
  });

  it('shows 530003 in a banner and keeps everything typed', async () => {
    const ctx = setup({ create: () => envelope(null, 530003, 'create task failed') });
    await fillValid(ctx);
    await ctx.submit();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Code 530003 · HTTP 200');
    expect(alert).toHaveTextContent('create task failed');
    expect(videoUrl()).toHaveValue(VIDEO);
    expect(within(ctx.languages()).getByRole('checkbox', { name: 'Japanese' })).toBeChecked();
  });

  // Plain Enter in a one-line field submits anyway (implicit submission); on a switch it flips the
  // switch, so a switch is where the shortcut itself is proven.
  it.each([
    ['Ctrl+Enter', '{Control>}{Enter}{/Control}'],
    ['Cmd+Enter (metaKey)', '{Meta>}{Enter}{/Meta}'],
  ])('%s submits from a switch without flipping it', async (_, keys) => {
    const ctx = setup();
    await fillValid(ctx);
    const captions = screen.getByRole('switch', { name: 'Generate captions' });
    captions.focus();
    await ctx.user.keyboard(keys);
    await waitFor(() => expect(ctx.posts).toHaveLength(1));
    expect(ctx.posts[0]!.body).toMatchObject({
      target_languages: ['Japanese'],
      video_url: VIDEO,
      enable_caption: false,
    });
    expect(captions).toHaveAttribute('aria-checked', 'false');
    expect(await screen.findByRole('link', { name: ctx.created[0] })).toBeInTheDocument();
  });

  it('offers the request as cURL with $API_TOKEN and the target languages', async () => {
    const ctx = setup();
    await fillValid(ctx);
    await ctx.pick('English');
    await ctx.submit();
    const panel = await screen.findByRole('region', { name: '2 translation tasks created' });
    expect(within(panel).getByRole('button', { name: 'Copy as cURL' })).toBeInTheDocument();
    const curl = within(panel).getByLabelText('cURL command').textContent ?? '';
    expect(curl).toContain('Authorization: Bearer $API_TOKEN');
    expect(curl).toContain('/v1/video_translate');
    expect(curl).toContain('"target_languages":["Japanese","English"]');
    expect(curl).toContain(`"video_url":"${VIDEO}"`);
  });

  it('sends once while in flight', async () => {
    const gate = deferred<Response>();
    const ctx = setup({ create: () => gate.promise });
    await fillValid(ctx);
    await ctx.submit();
    await waitFor(() => expect(ctx.posts).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Sending…' })).toBeDisabled();
    videoUrl().focus();
    await ctx.user.keyboard('{Control>}{Enter}{/Control}');
    fireEvent.submit(videoUrl().closest('form')!);
    gate.resolve(envelope([{ task_id: 'vt-9', language: 'Japanese' }]));
    expect(await screen.findByRole('link', { name: 'vt-9' })).toBeInTheDocument();
    // Control: a submit now is sent, and it is the second post: a blocked submit above, had it been
    // sent, would have come before it.
    await ctx.submit();
    await waitFor(() => expect(ctx.posts.length).toBeGreaterThanOrEqual(2));
    expect(ctx.posts).toHaveLength(2);
  });

  it('restores the draft after a remount; Reset returns to the defaults', async () => {
    const first = setup();
    await fillValid(first);
    await first.user.click(screen.getByRole('switch', { name: 'Generate captions' }));
    await waitFor(() => expect(localStorage.getItem(DRAFT)).toContain(VIDEO), { timeout: 2000 });
    first.unmount();

    const second = setup();
    expect(videoUrl()).toHaveValue(VIDEO);
    expect(within(second.languages()).getByRole('checkbox', { name: 'Japanese' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Generate captions' })).toHaveAttribute('aria-checked', 'true');
    await second.user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(videoUrl()).toHaveValue('');
    expect(screen.getByRole('switch', { name: 'Generate captions' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    expect(screen.getByRole('spinbutton', { name: 'Number of speakers' })).toHaveValue(1);
  });
});

describe('Edit and re-run', () => {
  it('opens filled with the request a task sent (its language), which it sends again as it was', async () => {
    const sent = {
      target_languages: ['Japanese'],
      video_url: VIDEO,
      speaker_num: 2,
      translate_audio_only: false,
      enable_dynamic_duration: true,
      enable_caption: true,
      name: 'All-hands recap',
    };
    expect(fillForm('video_translate', sent)).toBe('/translate');
    const ctx = setup();
    expect(videoUrl()).toHaveValue(VIDEO);
    expect(await within(ctx.languages()).findByRole('checkbox', { name: 'Japanese' })).toBeChecked();
    await ctx.submit();
    await screen.findByRole('region', { name: /task created|tasks created/ });
    expect(ctx.posts[0]).toMatchObject({ url: '/v1/video_translate', body: sent });
  });
});
