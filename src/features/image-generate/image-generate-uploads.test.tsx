// @vitest-environment jsdom
// Files on Create image's reference images (the shared rows, so Image to video's too): several at
// once fill rows up to the limit and name what was left out, progress is a progress bar, the form
// waits for running uploads and says so, a refusal sends nothing, a network error offers a retry,
// and a backend without the endpoint turns the file controls into a note.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getTask } from '@/features/tasks/history/history';
import { FakeXhr } from '@/testing/fake-xhr';
import { renderWithClient, stubFetch } from '@/testing/form-test-utils';
import { HEADS, mediaFile, uploadSuccess, withFakeUploads } from '@/testing/upload-test-utils';
import { ImageGenerateForm } from './form/image-generate-form';

const png = (name: string) => mediaFile(HEADS.png, name, { length: 4000, type: 'image/png' });
const success = uploadSuccess;

withFakeUploads();

function setup() {
  const stub = stubFetch();
  const user = userEvent.setup();
  renderWithClient(<ImageGenerateForm />);
  fireEvent.change(screen.getByRole('textbox', { name: 'Prompt' }), { target: { value: 'A lighthouse' } });
  const group = screen.getByRole('group', { name: /Reference images/ });
  const pick = async (files: File[]) => {
    const input = screen.getByRole('button', { name: 'Upload images' })
      .nextElementSibling as HTMLInputElement;
    await user.upload(input, files);
  };
  const submit = () => user.click(screen.getByRole('button', { name: 'Generate images' }));
  return { ...stub, user, group, pick, submit };
}

/** Waits until `count` uploads are out, then answers them in order with their URLs. */
async function answerUploads(count: number, url = (i: number) => `https://cdn.example.com/u/${i}.png`) {
  await waitFor(() => expect(FakeXhr.all).toHaveLength(count));
  act(() => FakeXhr.all.forEach((xhr, i) => xhr.answer(200, success(url(i)))));
}

describe('reference image files', () => {
  it('several picked files fill one row each, with a progress bar each, then their URLs', async () => {
    const { user, pick, submit, posts } = setup();
    await pick([png('a.png'), png('b.png'), png('c.png')]);
    await waitFor(() => expect(FakeXhr.all).toHaveLength(3));
    act(() => FakeXhr.all[0]!.progress(1000, 4000));
    const bar = screen.getByRole('progressbar', { name: 'Uploading a.png' });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(bar).toHaveAttribute('aria-valuetext', '25%, 1000 B of 4 KB');
    expect(screen.getAllByRole('progressbar')).toHaveLength(3);

    await answerUploads(3);
    for (const index of [0, 1, 2]) {
      expect(await screen.findByRole('textbox', { name: `Reference image URL ${index + 1}` })).toHaveValue(
        `https://cdn.example.com/u/${index}.png`,
      );
    }
    expect(screen.queryByRole('progressbar')).toBeNull();
    // Each row shows its file by name and size, not the address the upload returned.
    const cards = screen.getAllByTestId('uploaded-file');
    expect(cards.map((card) => card.textContent)).toEqual([
      'a.png4 KB · uploadedEdit link of a.png',
      'b.png4 KB · uploadedEdit link of b.png',
      'c.png4 KB · uploadedEdit link of c.png',
    ]);
    expect(screen.getByRole('textbox', { name: 'Reference image URL 2' })).toHaveClass('hidden');
    await user.click(screen.getByRole('button', { name: 'Edit link of b.png' }));
    expect(screen.getByRole('textbox', { name: 'Reference image URL 2' })).not.toHaveClass('hidden');
    expect(screen.getAllByTestId('uploaded-file')).toHaveLength(2);

    await submit();
    await waitFor(() => expect(posts).toHaveLength(1));
    expect((posts[0]!.body as { reference_images: string[] }).reference_images).toEqual([
      'https://cdn.example.com/u/0.png',
      'https://cdn.example.com/u/1.png',
      'https://cdn.example.com/u/2.png',
    ]);
    // The names stay with the task in this browser's history, never in the request.
    expect(JSON.stringify(posts[0]!.body)).not.toContain('a.png');
    await screen.findByRole('region', { name: /image task created/ });
    const id = screen.getByRole('link', { name: /^i2is-/ }).textContent!;
    expect((await getTask(id))?.files).toEqual([
      { field: 'reference_images[0]', url: 'https://cdn.example.com/u/0.png', name: 'a.png' },
      { field: 'reference_images[1]', url: 'https://cdn.example.com/u/1.png', name: 'b.png' },
      { field: 'reference_images[2]', url: 'https://cdn.example.com/u/2.png', name: 'c.png' },
    ]);
  });

  it('files dropped beyond the limit of 5 are left out, by name', async () => {
    const { group } = setup();
    const files = ['1', '2', '3', '4', '5', '6', '7'].map((n) => png(`${n}.png`));
    fireEvent.drop(group, { dataTransfer: { files, types: ['Files'] } });
    expect(
      await screen.findByText('Left out: 6.png, 7.png (at most 5 reference images).'),
    ).toBeInTheDocument();
    await waitFor(() => expect(FakeXhr.all).toHaveLength(5));
    expect(screen.getAllByRole('textbox', { name: /Reference image URL/ })).toHaveLength(5);
  });

  it('a pasted image goes into the row it is pasted on', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Add reference image' }));
    await user.click(screen.getByRole('button', { name: 'Add reference image' }));
    const second = screen.getByRole('textbox', { name: 'Reference image URL 2' });
    fireEvent.paste(second, { clipboardData: { files: [png('clip.png')] } });
    await answerUploads(1);
    await waitFor(() => expect(second).toHaveValue('https://cdn.example.com/u/0.png'));
    expect(screen.getByRole('textbox', { name: 'Reference image URL 1' })).toHaveValue('');
  });

  it('holds the submission while an upload runs and says so; sends once it is done', async () => {
    const { pick, submit, posts } = setup();
    await pick([png('slow.png')]);
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    expect(screen.getByText(/A file is still uploading/)).toBeInTheDocument();
    await submit();
    expect(await screen.findByText(/Not sent yet\. A file is still uploading/)).toBeInTheDocument();
    expect(posts).toHaveLength(0);
    await answerUploads(1);
    await waitFor(() => expect(screen.queryByText(/still uploading/)).toBeNull());
    await submit();
    await waitFor(() => expect(posts).toHaveLength(1));
  });

  it('a cancelled upload leaves the row empty and the form free to send', async () => {
    const { user, pick, submit, posts } = setup();
    await pick([png('slow.png')]);
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Cancel uploading slow.png' }));
    expect(FakeXhr.all[0]!.aborted).toBe(true);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Reference image URL 1' })).toHaveValue('');
    await submit();
    await waitFor(() => expect(posts).toHaveLength(1));
  });

  it('refuses a text file named .png with the reason beside the control, adds no row, and sends nothing', async () => {
    const { user, pick } = setup();
    await pick([new File(['just words'], 'notes.png', { type: 'image/png' }), png('ok.png')]);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'notes.png is not a JPG, JPEG, PNG, BMP, WebP or GIF image. Nothing was sent.',
    );
    // Only the good file took a row.
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    expect(screen.getAllByRole('textbox', { name: /Reference image URL/ })).toHaveLength(1);
    expect(screen.getByRole('group', { name: /Reference images/ })).toHaveTextContent('1 of 5');
    await user.click(screen.getByRole('button', { name: 'Dismiss the message about refused files' }));
    expect(screen.queryByText(/notes\.png/)).toBeNull();
  });

  it('a refused file alone adds no row at all', async () => {
    const { pick } = setup();
    await pick([new File(['just words'], 'notes.png', { type: 'image/png' })]);
    await screen.findByText(/notes\.png is not a JPG/);
    expect(screen.queryByRole('textbox', { name: /Reference image URL/ })).toBeNull();
    expect(FakeXhr.all).toHaveLength(0);
  });

  // Was an end-to-end test (e2e/uploads.spec.ts): the rule is the form's, the browser's part is the picker.
  it('refuses a 25 MB image by its size and text named .png on a row, with reasons, and sends nothing', async () => {
    const { user, pick } = setup();
    await pick([mediaFile(HEADS.png, 'huge.png', { size: 25 * 1024 * 1024, type: 'image/png' })]);
    expect(
      await screen.findByText('huge.png is 25 MB; images can be at most 20 MB. Nothing was sent.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add reference image' }));
    const rowInput = screen.getByRole('button', { name: 'Upload a file for reference image 1' })
      .nextElementSibling as HTMLInputElement;
    await user.upload(rowInput, [
      new File(['Meeting notes, not an image at all.\n'], 'notes.png', { type: 'image/png' }),
    ]);
    expect(
      await screen.findByText('notes.png is not a JPG, JPEG, PNG, BMP, WebP or GIF image. Nothing was sent.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Reference image URL 1' })).toHaveValue('');
    expect(FakeXhr.all).toHaveLength(0);
  });

  it('offers a retry after a network error', async () => {
    const { user, pick } = setup();
    await pick([png('flaky.png')]);
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    act(() => FakeXhr.all[0]!.onerror?.());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('flaky.png was not uploaded: The upload was interrupted');
    await user.click(within(alert).getByRole('button', { name: 'Retry uploading flaky.png' }));
    await waitFor(() => expect(FakeXhr.all).toHaveLength(2));
    act(() => FakeXhr.all[1]!.answer(200, success('https://cdn.example.com/u/ok.png')));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Reference image URL 1' })).toHaveValue(
        'https://cdn.example.com/u/ok.png',
      ),
    );
  });

  it('a backend without the endpoint turns the file controls into a note; URLs still work', async () => {
    const { pick, user } = setup();
    await pick([png('a.png')]);
    await waitFor(() => expect(FakeXhr.all).toHaveLength(1));
    act(() => FakeXhr.all[0]!.answer(404, '404 page not found'));
    expect(await screen.findByText(/File uploads are not available on this backend/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload images' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Upload a file for/ })).toBeNull();
    const row = screen.getByRole('textbox', { name: 'Reference image URL 1' });
    await user.type(row, 'https://example.com/a.png');
    expect(row).toHaveValue('https://example.com/a.png');
  });
});
