// @vitest-environment jsdom
// A video file for Translate video: checked against UPLOAD_MAX_MB from /__console/config and by its
// bytes, uploaded with progress into the Video URL, and its name kept with the created tasks.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { getTask } from '@/features/tasks/history/history';
import { testConsoleInfo } from '@/testing/console-info';
import { FakeXhr } from '@/testing/fake-xhr';
import { renderWithClient, stubFetch } from '@/testing/form-test-utils';
import { HEADS, mediaFile, withFakeUploads } from '@/testing/upload-test-utils';
import { VideoTranslateForm } from './video-translate-form';

const MB = 1024 * 1024;
const mp4 = (name: string, size?: number) => mediaFile(HEADS.mp4, name, { size, type: 'video/mp4' });

withFakeUploads();

function setup() {
  const stub = stubFetch({ languages: ['English', 'Japanese'] });
  const user = userEvent.setup();
  renderWithClient(<VideoTranslateForm />, testConsoleInfo({ uploadMaxBytes: 100 * MB }));
  const pick = (file: File) => {
    const input = screen.getByRole('button', { name: 'Upload video' }).nextElementSibling as HTMLInputElement;
    fireEvent.change(input, { target: { files: [file] } });
  };
  return { ...stub, user, pick };
}

it('refuses a video over UPLOAD_MAX_MB and an image, and sends neither', async () => {
  const { pick } = setup();
  expect(screen.getByText(/MP4, MOV or WebM, at most 100 MB/)).toBeInTheDocument();
  pick(mp4('keynote.mp4', 101 * MB));
  expect(
    await screen.findByText('keynote.mp4 is 101 MB; videos can be at most 100 MB. Nothing was sent.'),
  ).toBeInTheDocument();
  const image = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'still.mp4');
  pick(image);
  expect(
    await screen.findByText(/still\.mp4 is not a MP4, MOV or WebM video \(its content is PNG\)/),
  ).toBeInTheDocument();
  expect(FakeXhr.all).toHaveLength(0);
});

it('uploads a picked video into the Video URL, and keeps its name with the created tasks', async () => {
  const { pick, user, posts } = setup();
  pick(mp4('interview.mp4'));
  await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
  act(() => FakeXhr.all[0]!.progress(1500, 3000));
  expect(screen.getByRole('progressbar', { name: 'Uploading interview.mp4' })).toHaveAttribute(
    'aria-valuenow',
    '50',
  );
  act(() =>
    FakeXhr.all[0]!.answer(200, {
      code: 0,
      success: true,
      result: { url: 'https://cdn.example.com/v/1.mp4' },
    }),
  );
  const input = screen.getByRole('textbox', { name: 'Video URL' });
  await waitFor(() => expect(input).toHaveValue('https://cdn.example.com/v/1.mp4'));
  // The field shows the file (name, size), not the address the upload returned.
  const card = screen.getByTestId('uploaded-file');
  expect(card).toHaveTextContent('interview.mp4');
  expect(card).toHaveTextContent(/\d+ (B|KB|MB) · uploaded/);
  expect(input.closest('.hidden')).not.toBeNull();

  await user.click(
    within(screen.getByRole('group', { name: 'Target languages' })).getByText('English', { exact: true }),
  );
  await user.click(screen.getByRole('button', { name: 'Translate video' }));
  await waitFor(() => expect(posts).toHaveLength(1));
  expect((posts[0]!.body as { video_url: string }).video_url).toBe('https://cdn.example.com/v/1.mp4');
  await screen.findByRole('region', { name: /translation task created/ });
  const id = screen.getByRole('link', { name: /^vt-/ }).textContent!;
  expect((await getTask(id))?.files).toEqual([
    { field: 'video_url', url: 'https://cdn.example.com/v/1.mp4', name: 'interview.mp4' },
  ]);
});

// The server's upload limits (the person's day: 429; the console's storage: 507) reach the
// form as words beside the field, with no Retry (trying again the same day cannot help).
it('shows the server’s quota refusal beside the Video URL field, and leaves the field empty', async () => {
  const { pick } = setup();
  const daily =
    'Daily upload limit: you have uploaded 2,000 MB of 2,048 MB today, and this file does not fit in what is left. It starts again at 00:00 UTC; until then, paste a public URL.';
  pick(mp4('keynote.mp4'));
  await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
  // As the proxy answers: {code, msg} with Retry-After.
  act(() => FakeXhr.all[0]!.answer(429, { code: 429, msg: daily }, { 'retry-after': '3600' }));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent(`keynote.mp4 was not uploaded: ${daily}`);
  expect(within(alert).queryByRole('button', { name: /Retry/ })).toBeNull();
  expect(screen.getByRole('textbox', { name: 'Video URL' })).toHaveValue('');

  // As the emulator answers: the provider's envelope, storage full.
  await userEvent.setup().click(within(alert).getByRole('button', { name: /Dismiss/ }));
  pick(mp4('second.mp4'));
  await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
  const full =
    "The console's upload storage is full (10,240 MB of files, each kept 7 days). Try again later, or paste a public URL.";
  act(() =>
    FakeXhr.all[1]!.answer(507, { code: 507, success: false, message: { global: full }, result: null }),
  );
  expect(await screen.findByRole('alert')).toHaveTextContent(`second.mp4 was not uploaded: ${full}`);
});
