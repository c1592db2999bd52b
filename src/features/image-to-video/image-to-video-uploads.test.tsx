// @vitest-environment jsdom
// Files on Image to video: the frames take JPG, PNG or WebP (a GIF is refused before sending), a
// dropped frame fills its field, and the reference images keep the mode's own limit.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it } from 'vitest';
import { FakeXhr } from '@/testing/fake-xhr';
import { renderWithClient, stubFetch } from '@/testing/form-test-utils';
import { HEADS, mediaFile, withFakeUploads } from '@/testing/upload-test-utils';
import { ImageToVideoForm } from './image-to-video-form';

const fileOf = (head: number[], name: string) => mediaFile(head, name);
const { png: PNG, gif: GIF } = HEADS;
const drop = (target: HTMLElement, files: File[]) =>
  fireEvent.drop(target, { dataTransfer: { files, types: ['Files'] } });

withFakeUploads();

it('a PNG dropped on the end frame fills it; a GIF on the start frame is refused unsent', async () => {
  stubFetch();
  renderWithClient(<ImageToVideoForm />);
  const start = screen.getByRole('textbox', { name: 'Start frame URL' });
  drop(start, [fileOf(GIF, 'loop.gif')]);
  expect(
    await screen.findByText(
      'loop.gif is not a JPG, PNG or WebP image (its content is GIF). Nothing was sent.',
    ),
  ).toBeInTheDocument();
  const end = screen.getByRole('textbox', { name: 'End frame URL' });
  drop(end, [fileOf(PNG, 'last.png')]);
  await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
  act(() =>
    FakeXhr.all[0]!.answer(200, { code: 0, success: true, result: { url: 'https://cdn.example.com/e.png' } }),
  );
  await waitFor(() => expect(end).toHaveValue('https://cdn.example.com/e.png'));
  expect(start).toHaveValue('');
});

it('reference images keep the mode’s limit (Model V: 3) and name what was left out', async () => {
  stubFetch();
  const user = userEvent.setup();
  renderWithClient(<ImageToVideoForm />);
  await user.click(
    within(screen.getByRole('radiogroup', { name: 'Mode' })).getByRole('radio', { name: /Reference images/ }),
  );
  // The list's code loads when the form is first approached or used.
  const group = await screen.findByRole('group', { name: /Reference images/ });
  drop(
    group,
    ['a', 'b', 'c', 'd'].map((name) => fileOf(PNG, `${name}.png`)),
  );
  expect(await screen.findByText('Left out: d.png (at most 3 reference images).')).toBeInTheDocument();
  await waitFor(() => expect(FakeXhr.all).toHaveLength(3));
});
