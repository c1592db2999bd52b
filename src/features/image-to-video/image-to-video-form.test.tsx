// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, renderWithClient, stubFetch, type FetchStubOptions } from '@/testing/form-test-utils';
import { getTask } from '@/features/tasks/history/history';
import type { AnimateSource } from './link/animate-link';
import { fillForm } from '@/forms/prefill';
import { I2V_DRAFT_KEY, ImageToVideoForm } from './image-to-video-form';

const DRAFT = `media-console:draft:${I2V_DRAFT_KEY}`;
const START = 'https://images.example.com/start.png';
const END = 'https://images.example.com/end.png';
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function setup(options: FetchStubOptions = {}, source?: AnimateSource) {
  const stub = stubFetch(options);
  const user = userEvent.setup();
  const view = renderWithClient(<ImageToVideoForm source={source} />);
  const submit = () => user.click(screen.getByRole('button', { name: 'Create videos' }));
  const radio = (group: string, name: string) =>
    within(screen.getByRole('radiogroup', { name: group })).getByRole('radio', { name });
  return { ...stub, ...view, user, submit, radio };
}

const fill = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });
const textbox = (name: string) => screen.getByRole('textbox', { name });
const changeLine = () => screen.getByText(/set to|is now/, { selector: '[role="status"]' });

async function fillStartFrame() {
  fill(textbox('Prompt'), 'Slow push-in');
  fill(textbox('Start frame URL'), START);
}

describe('submitting', () => {
  it('sends the start-frame request, records the tasks and offers Copy as cURL', async () => {
    const ctx = setup();
    await fillStartFrame();
    fill(textbox('End frame URL'), END);
    await ctx.user.click(ctx.radio('Resolution', '1080p'));
    await ctx.user.click(ctx.radio('Duration', '6 s'));
    await ctx.user.click(screen.getByRole('switch', { name: 'Audio' }));
    fill(screen.getByRole('spinbutton', { name: 'Number of videos' }), '2');
    await ctx.submit();
    const panel = await screen.findByRole('region', { name: '2 video tasks created' });
    expect(ctx.posts[0]).toEqual({
      url: '/v1/image_to_video',
      body: {
        model: 'V',
        prompt: 'Slow push-in',
        image_url: START,
        end_image_url: END,
        aspect_ratio: '16:9',
        aspect_resolution: '1080p',
        duration: 6,
        generate_audio: true,
        generate_count: 2,
      },
    });
    expect(within(panel).getByRole('button', { name: 'Copy as cURL' })).toBeInTheDocument();
    expect(within(panel).getByLabelText('cURL command')).toHaveTextContent('/v1/image_to_video');
    expect(await getTask(ctx.created[1]!)).toMatchObject({ kind: 'image_to_video', source: 'created' });
  });

  it('sends a KL multi-reference request without image_url or generate_audio', async () => {
    const ctx = setup();
    await ctx.user.click(ctx.radio('Mode', 'Multi-reference'));
    expect(ctx.radio('Model', 'Model KL')).toBeChecked();
    fill(textbox('Prompt'), 'Calm scene');
    await ctx.user.click(screen.getByRole('button', { name: 'Add reference image' }));
    fill(textbox('Reference image URL 1'), START);
    await ctx.user.click(screen.getByRole('button', { name: 'Add reference image' }));
    fill(textbox('Reference image URL 2'), END);
    await ctx.submit();
    await screen.findByRole('region', { name: '1 video task created' });
    expect(ctx.posts[0]!.body).toEqual({
      model: 'KL',
      prompt: 'Calm scene',
      reference_images: [START, END],
      aspect_ratio: '16:9',
      aspect_resolution: '720p',
      // The 8 s of the start-frame default moved to the closest KL duration.
      duration: 10,
      generate_count: 1,
    });
  });

  it('submits with Ctrl+Enter and keeps the draft across a remount', async () => {
    setup();
    await fillStartFrame();
    await waitFor(() => expect(localStorage.getItem(DRAFT)).toContain(START));
    cleanup();
    setup();
    expect(textbox('Start frame URL')).toHaveValue(START);
    await userEvent.setup().type(textbox('Prompt'), '{Control>}{Enter}{/Control}');
    await screen.findByRole('region', { name: '1 video task created' });
  });
});

describe('the rules of each model and mode', () => {
  it('requires the start frame, and 1 to 3 reference images for model V', async () => {
    const ctx = setup();
    fill(textbox('Prompt'), 'x');
    await ctx.submit();
    expect(await screen.findByText(/Enter the start frame/)).toBeInTheDocument();
    expect(textbox('Start frame URL')).toHaveFocus();
    await ctx.user.click(ctx.radio('Mode', 'Reference images'));
    await ctx.submit();
    expect(
      await screen.findByText('Add 1 to 3 reference images for model V with reference images'),
    ).toBeInTheDocument();
    expect(ctx.posts).toHaveLength(0);
  });

  it('offers only the durations and resolutions of the chosen row', async () => {
    const ctx = setup();
    const options = (group: string) =>
      within(screen.getByRole('radiogroup', { name: group }))
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value'));
    expect(options('Duration')).toEqual(['4', '6', '8']);
    expect(options('Resolution')).toEqual(['720p', '1080p', '4k']);
    await ctx.user.click(ctx.radio('Mode', 'Reference images'));
    expect(options('Duration')).toEqual(['8']);
    await ctx.user.click(ctx.radio('Model', 'Model KL'));
    expect(options('Duration')).toEqual(['5', '10']);
    expect(options('Resolution')).toEqual(['720p', '1080p']);
    expect(screen.queryByRole('switch', { name: 'Audio' })).not.toBeInTheDocument();
  });

  it('says in one line what a switch changed, and keeps every value still valid', async () => {
    const ctx = setup();
    await fillStartFrame();
    await ctx.user.click(ctx.radio('Resolution', '4k'));
    await ctx.user.click(ctx.radio('Orientation', 'Portrait'));
    await ctx.user.click(screen.getByRole('switch', { name: 'Audio' }));
    await ctx.user.click(ctx.radio('Model', 'Model KL'));
    expect(changeLine()).toHaveTextContent(
      'Mode set to multi-reference; 4k is not available with KL: set to 1080p; 8 s is not available with model KL: set to 10 s; audio is not available with KL: turned off; the start frame is now reference image 1.',
    );
    expect(ctx.radio('Mode', 'Multi-reference')).toBeChecked();
    expect(ctx.radio('Resolution', '1080p')).toBeChecked();
    expect(ctx.radio('Duration', '10 s')).toBeChecked();
    expect(ctx.radio('Orientation', 'Portrait')).toBeChecked();
    expect(textbox('Prompt')).toHaveValue('Slow push-in');
    expect(textbox('Reference image URL 1')).toHaveValue(START);
    // Back to V with a start frame: the frame is still there, 10 s becomes the closest 8 s.
    await ctx.user.click(ctx.radio('Mode', 'Start frame'));
    expect(changeLine()).toHaveTextContent(
      'Start frame uses model V: model set to V; 10 s is not available with model V with a start frame: set to 8 s.',
    );
    expect(ctx.radio('Model', 'Model V')).toBeChecked();
    expect(textbox('Start frame URL')).toHaveValue(START);
    expect(ctx.radio('Resolution', '1080p')).toBeChecked();
  });

  it('shows the narration hint for model V only', async () => {
    const ctx = setup();
    expect(textbox('Prompt')).toHaveAccessibleDescription(/Speak "…" in the prompt and turn on Audio/);
    await ctx.user.click(screen.getByRole('switch', { name: 'Audio' }));
    expect(textbox('Prompt')).toHaveAccessibleDescription(/Speak "…" in the prompt\./);
    await ctx.user.click(ctx.radio('Model', 'Model KL'));
    expect(textbox('Prompt')).not.toHaveAccessibleDescription(/Speak/);
  });

  it('summarises count × duration × resolution × orientation and audio', async () => {
    const ctx = setup();
    const summary = screen.getByRole('region', { name: 'What you will get' });
    expect(summary).toHaveTextContent('1 × 8 s × 720p × landscape (16:9), no audio');
    fill(screen.getByRole('spinbutton', { name: 'Number of videos' }), '3');
    await ctx.user.click(ctx.radio('Orientation', 'Portrait'));
    await ctx.user.click(screen.getByRole('switch', { name: 'Audio' }));
    expect(summary).toHaveTextContent('3 × 8 s × 720p × portrait (9:16), with audio');
  });

  it('notes start and end frames of different orientations', async () => {
    // jsdom loads no images: this one is as wide as its URL says.
    vi.stubGlobal(
      'Image',
      class {
        naturalWidth = 0;
        naturalHeight = 0;
        onload: (() => void) | null = null;
        referrerPolicy = '';
        set src(url: string) {
          [this.naturalWidth, this.naturalHeight] = url.includes('wide') ? [1600, 900] : [900, 1600];
          setTimeout(() => this.onload?.(), 0);
        }
      },
    );
    setup();
    fill(textbox('Start frame URL'), 'https://images.example.com/wide.png');
    fill(textbox('End frame URL'), 'https://images.example.com/tall.png');
    expect(
      await screen.findByText(/The start frame is landscape and the end frame is portrait/),
    ).toBeInTheDocument();
    fill(textbox('End frame URL'), 'https://images.example.com/wide-2.png');
    await waitFor(() => expect(screen.queryByText(/different orientations/)).not.toBeInTheDocument());
  });
});

describe('answers of the service', () => {
  it('puts 100002 on its field with the range, and shows 100002 "invalid token" verbatim without one', async () => {
    const ctx = setup({
      create: () => envelope(undefined, 100002, 'generate_count should be [1,4], current: 3', 400),
    });
    await fillStartFrame();
    await ctx.submit();
    expect(
      await within(screen.getByRole('form')).findByText(
        'The service refused this value: generate_count should be [1,4], current: 3. Allowed: 1 to 4.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('spinbutton', { name: 'Number of videos' })).toHaveFocus();
    cleanup();
    const other = setup({ create: () => envelope(undefined, 100002, 'invalid token', 400) });
    await other.submit();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('invalid token');
    expect(alert).not.toHaveTextContent(/Allowed|\[/);
  });

  it('puts the endpoint’s own 100004–100007 on the field their msg names', async () => {
    const ctx = setup({
      create: () => envelope(undefined, 100006, 'end_image_url not reachable', 200),
    });
    await fillStartFrame();
    fill(textbox('End frame URL'), END);
    await ctx.submit();
    await waitFor(() => expect(textbox('End frame URL')).toHaveAttribute('aria-invalid', 'true'));
    expect(textbox('End frame URL')).toHaveAccessibleDescription(/end_image_url not reachable/);
  });

  it('puts 530002 on the image that could not be downloaded', async () => {
    const ctx = setup({
      emulator: {
        fetch: async (input) =>
          String(input).includes('end')
            ? new Response('gone', { status: 404 })
            : new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), {
                headers: { 'content-type': 'image/png' },
              }),
      },
    });
    await fillStartFrame();
    fill(textbox('End frame URL'), END);
    await ctx.submit();
    await waitFor(() => expect(textbox('End frame URL')).toHaveAttribute('aria-invalid', 'true'));
    expect(textbox('End frame URL')).toHaveAccessibleDescription(/530002/);
    expect(textbox('Start frame URL')).not.toHaveAttribute('aria-invalid');
  });

  it('says plainly when the backend has no image-to-video endpoint (404 without a code)', async () => {
    const ctx = setup({ emulator: { disabled: ['image_to_video_create'] } });
    await fillStartFrame();
    await ctx.submit();
    expect(await screen.findByText('Image to video is not available on this backend')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /created/ })).not.toBeInTheDocument();
    expect(textbox('Start frame URL')).toHaveValue(START);
  });
});

describe('Animate', () => {
  it('opens with the image as the start frame, its orientation, and records where it came from', async () => {
    localStorage.setItem(
      DRAFT,
      JSON.stringify({ model: 'KL', mode: 'multi_reference', prompt: 'kept', duration: '10' }),
    );
    const ctx = setup({}, { from: 'i2is-source', start: START, ratio: '9:16' });
    expect(ctx.radio('Mode', 'Start frame')).toBeChecked();
    expect(ctx.radio('Model', 'Model V')).toBeChecked();
    expect(ctx.radio('Orientation', 'Portrait')).toBeChecked();
    expect(ctx.radio('Duration', '8 s')).toBeChecked();
    expect(textbox('Start frame URL')).toHaveValue(START);
    // A new image asks for its own motion: the draft's prompt is not carried over.
    expect(textbox('Prompt')).toHaveValue('');
    await waitFor(() => expect(textbox('Prompt')).toHaveFocus());
    expect(screen.getByRole('link', { name: 'i2is-source' })).toHaveAttribute('href', '/tasks/i2is-source');
    fill(textbox('Prompt'), 'Slow push-in');
    await ctx.submit();
    await screen.findByRole('region', { name: '1 video task created' });
    await act(async () => {
      expect(await getTask(ctx.created[0]!)).toMatchObject({ animatedFrom: 'i2is-source' });
    });
  });

  it("leaves the prompt empty and asks for the motion, with the image's prompt one click away", async () => {
    const ctx = setup(
      {},
      { from: 'i2is-source', start: START, ratio: '16:9', prompt: 'A red bicycle in Lisbon' },
    );
    const prompt = textbox('Prompt');
    expect(prompt).toHaveValue('');
    await waitFor(() => expect(prompt).toHaveFocus());
    expect(prompt).toHaveAccessibleDescription(/Describe the motion/);
    expect(await screen.findByText(/What should move in this image\?/)).toBeVisible();
    expect(screen.getByText('A red bicycle in Lisbon')).toBeVisible();
    await ctx.user.click(screen.getByRole('button', { name: "Use the image's prompt" }));
    expect(prompt).toHaveValue('A red bicycle in Lisbon');
    expect(prompt).toHaveFocus();
    // Taken: the offer is gone; changed again, it comes back.
    expect(screen.queryByRole('button', { name: "Use the image's prompt" })).toBeNull();
    fill(prompt, 'The bicycle rolls downhill');
    expect(await screen.findByRole('button', { name: "Use the image's prompt" })).toBeVisible();
  });

  it('asks for the motion but offers no prompt when the image had none', async () => {
    setup({}, { from: 'i2is-source', start: START, ratio: '9:16' });
    await waitFor(() => expect(textbox('Prompt')).toHaveFocus());
    expect(await screen.findByText(/What should move in this image\?/)).toBeVisible();
    expect(screen.queryByRole('button', { name: "Use the image's prompt" })).toBeNull();
  });
});

describe('Edit and re-run', () => {
  it('opens filled with the request a task sent (its mode read from it), which it sends again as it was', async () => {
    const sent = {
      model: 'V',
      prompt: 'Slow push-in',
      reference_images: [START, END],
      aspect_ratio: '16:9',
      aspect_resolution: '1080p',
      duration: 8,
      generate_audio: true,
      generate_count: 2,
    };
    expect(fillForm('image_to_video', sent)).toBe('/image-to-video');
    const ctx = setup();
    expect(ctx.radio('Mode', 'Reference images')).toBeChecked();
    await ctx.submit();
    await screen.findByRole('region', { name: '2 video tasks created' });
    expect(ctx.posts[0]).toEqual({ url: '/v1/image_to_video', body: sent });
  });
});
