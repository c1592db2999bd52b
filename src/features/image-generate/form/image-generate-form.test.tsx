// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IMAGE_QUALITIES, IMAGE_RATIOS, MODULES } from '@/api/schemas';
import { deferred, envelope, renderWithClient, stubFetch } from '@/testing/form-test-utils';
import { getTask } from '@/features/tasks/history/history';
import { IMAGE_DRAFT_KEY, ImageGenerateForm } from './image-generate-form';

const DRAFT = `media-console:draft:${IMAGE_DRAFT_KEY}`;

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function setup(options?: Parameters<typeof stubFetch>[0]) {
  const stub = stubFetch(options);
  const user = userEvent.setup();
  const view = renderWithClient(<ImageGenerateForm />);
  const prompt = screen.getByRole('textbox', { name: 'Prompt' });
  const submit = () => user.click(screen.getByRole('button', { name: 'Generate images' }));
  return { ...stub, ...view, user, prompt, submit };
}

/** Typing a thousand characters key by key is slow; a change event is what a paste produces. */
const fill = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

describe('prompt', () => {
  it('accepts exactly 1000 characters', async () => {
    const { prompt, submit, posts } = setup();
    fill(prompt, 'a'.repeat(1000));
    expect(screen.getByText('1000 / 1000')).toBeInTheDocument();
    await submit();
    await waitFor(() => expect(posts).toHaveLength(1));
    expect((posts[0]!.body as { prompt: string }).prompt).toHaveLength(1000);
  });

  it('refuses 1001 characters with a message, shows the overflow and focuses the prompt', async () => {
    const { prompt, submit, posts } = setup();
    fill(prompt, 'a'.repeat(1001));
    expect(screen.getByText(/1001 \/ 1000 · 1 over the limit/)).toBeInTheDocument();
    expect(prompt).toHaveValue('a'.repeat(1001)); // not silently cut
    await submit();
    expect(await screen.findByText('Prompt must be at most 1000 characters')).toBeInTheDocument();
    expect(prompt).toHaveAttribute('aria-invalid', 'true');
    expect(prompt).toHaveAccessibleDescription(
      expect.stringContaining('Prompt must be at most 1000 characters'),
    );
    expect(prompt).toHaveFocus();
    expect(posts).toHaveLength(0);
  });

  it('shows its error next to the field on blur, before any submit', async () => {
    const { user, prompt, posts } = setup();
    await user.type(prompt, 'a cat');
    await user.clear(prompt);
    expect(prompt).not.toHaveAttribute('aria-invalid');
    await user.tab();
    expect(prompt).not.toHaveFocus();
    expect(await screen.findByText('Prompt is required')).toBeInTheDocument();
    expect(prompt).toHaveAttribute('aria-invalid', 'true');
    expect(prompt).toHaveAccessibleDescription(expect.stringContaining('Prompt is required'));
    expect(posts).toHaveLength(0);
    // Corrected and left again (before any submit, validation runs on blur), the message goes.
    await user.type(prompt, 'a dog');
    await user.tab();
    expect(screen.queryByText('Prompt is required')).not.toBeInTheDocument();
    expect(prompt).not.toHaveAttribute('aria-invalid');
  });

  it('is required', async () => {
    const { submit, prompt, posts } = setup();
    await submit();
    expect(await screen.findByText('Prompt is required')).toBeInTheDocument();
    expect(prompt).toHaveFocus();
    expect(posts).toHaveLength(0);
  });
});

describe('reference images', () => {
  it('allows 5 rows, then disables the add button and says why; all 5 are sent', async () => {
    const { user, prompt, submit, posts } = setup();
    fill(prompt, 'a cat');
    const add = screen.getByRole('button', { name: 'Add reference image' });
    for (let i = 1; i <= 5; i++) {
      await user.click(add);
      fill(
        screen.getByRole('textbox', { name: `Reference image URL ${i}` }),
        `https://example.com/ref-${i}.png`,
      );
    }
    expect(add).toBeDisabled();
    expect(
      screen.getByText(/Limit reached: the service uses at most 5 reference images/),
    ).toBeInTheDocument();
    await submit();
    await waitFor(() => expect(posts).toHaveLength(1));
    expect((posts[0]!.body as { reference_images: string[] }).reference_images).toHaveLength(5);
  });

  it('refuses 6 rows (restored from an older draft) without sending', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => ({ url: `https://example.com/${i}.jpg` }));
    localStorage.setItem(DRAFT, JSON.stringify({ prompt: 'a cat', reference_images: rows }));
    const { submit, posts } = setup();
    await submit();
    expect(await screen.findByText(/At most 5 reference images/)).toBeInTheDocument();
    expect(posts).toHaveLength(0);
  });

  it.each([
    ['ftp://example.com/a.png', 'Enter an http:// or https:// image URL'],
    ['javascript:alert(1)', 'Enter an http:// or https:// image URL'],
    ['https://example.com/a.tiff', 'The service accepts JPG, JPEG, PNG, BMP, WebP or GIF images'],
  ])('refuses %s', async (url, message) => {
    const { user, prompt, submit, posts } = setup();
    fill(prompt, 'a cat');
    await user.click(screen.getByRole('button', { name: 'Add reference image' }));
    const input = screen.getByRole('textbox', { name: 'Reference image URL 1' });
    fill(input, url);
    await submit();
    // On the field (the side card repeats it as "Needs fixing").
    expect(await within(screen.getByRole('form')).findByText(message)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveFocus();
    expect(posts).toHaveLength(0);
  });

  it.each(['https://example.com/a.WebP', 'http://example.com/render?id=3', 'https://example.com/a.jpeg'])(
    'accepts %s',
    async (url) => {
      const { user, prompt, submit, posts } = setup();
      fill(prompt, 'a cat');
      await user.click(screen.getByRole('button', { name: 'Add reference image' }));
      fill(screen.getByRole('textbox', { name: 'Reference image URL 1' }), url);
      await user.click(screen.getByRole('button', { name: 'Add reference image' })); // a blank row is not sent
      await submit();
      await waitFor(() => expect(posts).toHaveLength(1));
      expect((posts[0]!.body as { reference_images: string[] }).reference_images).toEqual([url]);
    },
  );
});

describe('number of images', () => {
  it.each([0, 9])('refuses %i', async (count) => {
    const { prompt, submit, posts } = setup();
    fill(prompt, 'a cat');
    const input = screen.getByRole('spinbutton', { name: 'Number of images' });
    fill(input, String(count));
    await submit();
    expect(
      await within(screen.getByRole('form')).findByText(
        count === 0 ? 'Number of images must be at least 1' : 'Number of images must be at most 8',
      ),
    ).toBeInTheDocument();
    expect(input).toHaveFocus();
    expect(posts).toHaveLength(0);
  });

  it.each([1, 8])('sends %i', async (count) => {
    const { prompt, submit, posts } = setup();
    fill(prompt, 'a cat');
    fill(screen.getByRole('spinbutton', { name: 'Number of images' }), String(count));
    await submit();
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toMatchObject({ generate_count: count });
  });
});

describe('choices', () => {
  it('starts at the interface defaults: std, 1, 2K, 9:16', async () => {
    const { prompt, submit, posts } = setup();
    fill(prompt, 'a cat');
    await submit();
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toEqual({
      prompt: 'a cat',
      module: 'std',
      generate_count: 1,
      image_quality: '2K',
      image_ratio: '9:16',
    });
  });

  it('sends every mode, quality and aspect ratio', async () => {
    const { user, prompt, submit, posts } = setup();
    fill(prompt, 'a cat');
    const cases = [
      ...MODULES.map(
        (value) => ['Mode', value === 'std' ? 'Standard' : 'Professional', { module: value }] as const,
      ),
      ...IMAGE_QUALITIES.map((value) => ['Quality', value, { image_quality: value }] as const),
      ...IMAGE_RATIOS.map((value) => ['Aspect ratio', value, { image_ratio: value }] as const),
    ];
    for (const [group, label, expected] of cases) {
      await user.click(
        within(screen.getByRole('radiogroup', { name: group })).getByRole('radio', { name: label }),
      );
      await submit();
      await waitFor(() => expect(posts.at(-1)?.body).toMatchObject(expected));
    }
    expect(posts).toHaveLength(cases.length);
  });

  it('refuses a value outside an enum (an old draft)', async () => {
    localStorage.setItem(
      DRAFT,
      JSON.stringify({ prompt: 'a cat', module: 'ultra', image_quality: '8K', image_ratio: '2:1' }),
    );
    const { submit, posts } = setup();
    await submit();
    expect(await screen.findByText('Choose Standard or Professional')).toBeInTheDocument();
    expect(screen.getByText('Choose one of 1K, 2K, 4K')).toBeInTheDocument();
    expect(screen.getByText('Choose one of the ten aspect ratios')).toBeInTheDocument();
    expect(posts).toHaveLength(0);
  });
});

describe('submission', () => {
  it('shows each task id with a link, records them and offers the cURL', async () => {
    const { prompt, submit } = setup({ create: () => envelope({ task_ids: ['i2is-a', 'i2is-b'] }) });
    fill(prompt, 'two cats');
    fill(screen.getByRole('spinbutton', { name: 'Number of images' }), '2');
    await submit();
    const panel = await screen.findByRole('region', { name: '2 image tasks created' });
    expect(within(panel).getByRole('link', { name: 'i2is-a' })).toHaveAttribute('href', '/tasks/i2is-a');
    expect(within(panel).getByRole('link', { name: 'i2is-b' })).toHaveAttribute('href', '/tasks/i2is-b');
    expect(within(panel).getByRole('button', { name: 'Copy as cURL' })).toBeInTheDocument();
    expect(within(panel).getByLabelText('cURL command').textContent).toContain('Bearer $API_TOKEN');
    expect(within(panel).getByLabelText('cURL command').textContent).toContain('"generate_count":2');
    // Focus moves to the result once (in the panel's effect, which may run after the panel is on the
    // screen: a loaded CI machine saw the region before the focus); editing the prompt afterwards
    // keeps it in the prompt.
    const heading = within(panel).getByRole('heading', { name: '2 image tasks created' });
    await waitFor(() => expect(heading).toHaveFocus());
    prompt.focus();
    fill(prompt, 'two cats, again');
    expect(prompt).toHaveFocus();
    const record = await getTask('i2is-a');
    expect(record).toMatchObject({
      kind: 'image_generate',
      source: 'created',
      params: { prompt: 'two cats', generate_count: 2 },
    });
  });

  it('cannot be sent twice while a request is in flight (click, Enter, Ctrl+Enter)', async () => {
    const gate = deferred<Response>();
    const { user, prompt, posts } = setup({ create: () => gate.promise });
    fill(prompt, 'a cat');
    const button = screen.getByRole('button', { name: 'Generate images' });
    await user.click(button);
    await waitFor(() => expect(posts).toHaveLength(1));
    const pending = screen.getByRole('button', { name: 'Sending…' });
    expect(pending).toBeDisabled();
    expect(pending).toHaveAttribute('aria-busy', 'true');
    await user.click(pending);
    prompt.focus();
    await user.keyboard('{Control>}{Enter}{/Control}');
    fireEvent.submit(prompt.closest('form')!);
    gate.resolve(envelope({ task_ids: ['i2is-1'] }));
    expect(await screen.findByRole('link', { name: 'i2is-1' })).toBeInTheDocument();
    // Control: a submit now does reach the server. A blocked submit above, had it been sent, was
    // sent before this one, so the control arriving second proves none of them was.
    fill(prompt, 'a dog');
    await user.click(screen.getByRole('button', { name: 'Generate images' }));
    await waitFor(() => expect(posts.length).toBeGreaterThanOrEqual(2));
    expect(posts).toHaveLength(2);
    expect(posts[1]!.body).toMatchObject({ prompt: 'a dog' });
  });

  it('Ctrl+Enter submits from the prompt', async () => {
    const { user, prompt, posts } = setup();
    await user.type(prompt, 'a cat');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(posts).toHaveLength(1));
  });

  it('Cmd+Enter (metaKey) submits from the prompt, like Ctrl+Enter', async () => {
    const { user, prompt, posts } = setup();
    await user.type(prompt, 'a cat');
    await user.keyboard('{Meta>}{Enter}{/Meta}');
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toMatchObject({ prompt: 'a cat' });
    expect(prompt).toHaveValue('a cat'); // no newline typed into the prompt
  });

  it('plain Enter in the prompt adds a line and does not submit', async () => {
    const { user, prompt, posts } = setup();
    await user.type(prompt, 'a cat{Enter}');
    expect(prompt).toHaveValue('a cat\n');
    // Control: Ctrl+Enter then submits, and its post is the first, holding the line the Enter
    // began (a post sent by the Enter would have come first, with 'a cat' alone).
    await user.keyboard('b{Control>}{Enter}{/Control}');
    await waitFor(() => expect(posts.length).toBeGreaterThanOrEqual(1));
    expect(posts[0]!.body).toMatchObject({ prompt: 'a cat\nb' });
    expect(posts).toHaveLength(1);
  });
});

describe('server errors', () => {
  it('puts a 100002 on the field it names and keeps the input', async () => {
    const { prompt, submit } = setup({
      create: () => envelope(null, 100002, 'generate_count should be [1,8], current: 9', 400),
    });
    fill(prompt, 'a cat');
    await submit();
    const input = screen.getByRole('spinbutton', { name: 'Number of images' });
    await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
    expect(input).toHaveAccessibleDescription(
      expect.stringContaining('generate_count should be [1,8], current: 9'),
    );
    expect(input).toHaveFocus();
    expect(prompt).toHaveValue('a cat');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('puts a 100001 naming the prompt on the prompt', async () => {
    const { prompt, submit } = setup({
      create: () =>
        envelope(null, 100001, 'prompt: must be at most 1000 characters, current length: 1001', 400),
    });
    fill(prompt, 'a cat');
    await submit();
    await waitFor(() => expect(prompt).toHaveAttribute('aria-invalid', 'true'));
    expect(
      screen.getByText(/The service refused this value: prompt: must be at most 1000/),
    ).toBeInTheDocument();
  });

  it('marks the reference images on 530002', async () => {
    const { user, prompt, submit } = setup({
      create: () => envelope(null, 530002, 'download reference image failed'),
    });
    fill(prompt, 'a cat');
    await user.click(screen.getByRole('button', { name: 'Add reference image' }));
    const input = screen.getByRole('textbox', { name: 'Reference image URL 1' });
    fill(input, 'https://example.com/missing.png');
    await submit();
    expect(
      await screen.findByText(
        /could not download a reference image\..*\(Code 530002: “download reference image failed”\)/,
      ),
    ).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveFocus();
    expect(input).toHaveValue('https://example.com/missing.png');
    // Editing the URL it judged hides the verdict; the next submission decides again.
    fill(input, 'https://example.com/other.png');
    expect(screen.queryByText(/Code 530002/)).not.toBeInTheDocument();
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('shows the reason the server gives when an external image has no preview', async () => {
    const { user, fetchSpy } = setup();
    const emulator = fetchSpy.getMockImplementation()!;
    fetchSpy.mockImplementation(async (input, init) =>
      String(input).startsWith('/__console/preview?')
        ? Response.json(
            { reason: 'The address does not point to a JPG, PNG, WebP, GIF or BMP image.' },
            { status: 415 },
          )
        : emulator(input, init),
    );
    await user.click(screen.getByRole('button', { name: 'Add reference image' }));
    fill(screen.getByRole('textbox', { name: 'Reference image URL 1' }), 'https://example.com/page.html');
    fireEvent.error(screen.getByRole('img', { name: 'Preview of reference image 1' }));
    expect(
      await screen.findByText(
        /No preview: The address does not point to a JPG, PNG, WebP, GIF or BMP image\./,
      ),
    ).toBeInTheDocument();
  });

  it.each([
    [
      '530003',
      () => envelope(null, 530003, 'create task failed'),
      /Code 530003 · HTTP 200/,
      /create task failed/,
    ],
    ['401', () => envelope(null, 401, 'Authentication failed', 401), /HTTP 401/, /API_TOKEN/],
    ['429', () => envelope(null, 429, 'Rate limit exceeded', 429), /HTTP 429/, /30 seconds/],
    ['500', () => new Response('oops', { status: 500 }), /HTTP 500/, /internal problem/],
    ['a malformed body', () => new Response('<html>', { status: 200 }), /HTTP 200/, /does not understand/],
    [
      'a network failure',
      () => Promise.reject(new TypeError('Failed to fetch')),
      /No response/,
      /could not be reached/,
    ],
  ])('shows a banner with code, msg and what to do for %s', async (_, create, codeLine, text) => {
    const { prompt, submit } = setup({ create });
    fill(prompt, 'a cat');
    await submit();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(codeLine);
    expect(alert).toHaveTextContent(text);
    expect(alert).toHaveTextContent(/What to do:/);
    expect(prompt).toHaveValue('a cat');
    expect(screen.getByRole('button', { name: 'Generate images' })).toBeEnabled();
  });
});

describe('drafts', () => {
  it('restores the draft after a remount and Reset returns to the defaults', async () => {
    const first = setup();
    fill(first.prompt, 'a lighthouse');
    await first.user.click(
      within(screen.getByRole('radiogroup', { name: 'Aspect ratio' })).getByRole('radio', { name: '21:9' }),
    );
    await waitFor(() => expect(localStorage.getItem(DRAFT)).toContain('a lighthouse'), { timeout: 2000 });
    first.unmount();

    const second = setup();
    expect(second.prompt).toHaveValue('a lighthouse');
    expect(
      within(screen.getByRole('radiogroup', { name: 'Aspect ratio' })).getByRole('radio', { name: '21:9' }),
    ).toBeChecked();

    await second.user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(second.prompt).toHaveValue('');
    expect(
      within(screen.getByRole('radiogroup', { name: 'Aspect ratio' })).getByRole('radio', { name: '9:16' }),
    ).toBeChecked();
    await waitFor(
      () => expect(JSON.parse(localStorage.getItem(DRAFT) ?? '{}')).toMatchObject({ prompt: '' }),
      { timeout: 2000 },
    );
  });

  it('writes the last keystrokes at once when the page is hidden (pagehide), not only after the delay', () => {
    const { prompt } = setup();
    fill(prompt, 'typed just before closing the tab');
    expect(localStorage.getItem(DRAFT)).toBeNull(); // still inside the save delay
    window.dispatchEvent(new Event('pagehide'));
    expect(JSON.parse(localStorage.getItem(DRAFT) ?? '{}')).toMatchObject({
      prompt: 'typed just before closing the tab',
    });
  });

  it('ignores a corrupt draft', () => {
    localStorage.setItem(DRAFT, '{not json');
    const { prompt } = setup();
    expect(prompt).toHaveValue('');
    expect(screen.getByRole('spinbutton', { name: 'Number of images' })).toHaveValue(1);
  });
});

describe('reference image preview', () => {
  it('loads a preview only for http(s) URLs: never javascript:, data:, file: or half-typed text', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Add reference image' }));
    const input = screen.getByRole('textbox', { name: 'Reference image URL 1' });
    for (const text of [
      'javascript:alert(1)',
      'data:image/svg+xml,<svg onload=alert(1)>',
      'file:///etc/passwd',
      'ftp://example.com/a.png',
      'https://',
      'example.com/a.png',
    ]) {
      fill(input, text);
      expect(
        screen.queryByRole('img', { name: 'Preview of reference image 1' }),
        text,
      ).not.toBeInTheDocument();
    }
    fill(input, 'https://example.com/a.png');
    // Another host's image through this console's preview (the page's CSP allows 'self').
    expect(screen.getByRole('img', { name: 'Preview of reference image 1' })).toHaveAttribute(
      'src',
      `/__console/preview?url=${encodeURIComponent('https://example.com/a.png')}`,
    );
  });

  it('says so when the browser cannot load the image', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Add reference image' }));
    const input = screen.getByRole('textbox', { name: 'Reference image URL 1' });
    fill(input, 'https://example.com/gone.png');
    fireEvent.error(screen.getByRole('img', { name: 'Preview of reference image 1' }));
    expect(await screen.findByText(/This image does not load in the browser/)).toBeInTheDocument();
    expect(input).toHaveAccessibleDescription(expect.stringContaining('does not load'));
    expect(input).not.toHaveAttribute('aria-invalid');
  });
});

describe('explanations', () => {
  it('states the 20 MB limit and the formats for reference images', () => {
    setup();
    const group = screen.getByRole('group', { name: /Reference images/ });
    expect(group).toHaveAccessibleDescription(expect.stringContaining('at most 20 MB each'));
    expect(within(group).getByText(/JPG.*PNG.*at most 20 MB each/)).toBeVisible();
  });

  it('explains Standard and Professional in one line each', () => {
    setup();
    const mode = screen.getByRole('radiogroup', { name: 'Mode' });
    const standard = within(mode).getByRole('radio', { name: 'Standard' });
    const professional = within(mode).getByRole('radio', { name: 'Professional' });
    expect(standard).toHaveAccessibleDescription('The default mode; a good start for most prompts.');
    expect(professional).toHaveAccessibleDescription('Aims for finer detail and fidelity; may take longer.');
    expect(within(mode).getByText('The default mode; a good start for most prompts.')).toBeVisible();
    expect(within(mode).getByText('Aims for finer detail and fidelity; may take longer.')).toBeVisible();
  });
});
