// The first click after correcting refused fields must submit: an error clears as soon as its value
// is valid, and nothing moves the submit button between the press and the release of a real mouse.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** A real mouse press and release at the button's centre, as a person clicks (not a synthetic click). */
async function mouseClick(page: Page, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  const box = (await target.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.up();
}

test('Create image: one click after correcting prompt and number of images creates the tasks', async ({
  page,
}) => {
  await page.goto('/');
  const prompt = page.getByRole('textbox', { name: 'Prompt' });
  const count = page.getByRole('spinbutton', { name: 'Number of images' });
  const submit = page.getByRole('button', { name: 'Generate images' });
  await prompt.fill('a'.repeat(1001));
  await count.fill('9');
  await mouseClick(page, submit);
  await expect(count).toHaveAttribute('aria-invalid', 'true');
  await expect(prompt).toHaveAttribute('aria-invalid', 'true');

  await prompt.fill('A lighthouse at dawn');
  await count.fill('2');
  // Valid again: the errors are gone before the field is left.
  await expect(count).not.toHaveAttribute('aria-invalid', 'true');
  await expect(prompt).not.toHaveAttribute('aria-invalid', 'true');
  await mouseClick(page, submit);
  await expect(page.getByRole('region', { name: '2 image tasks created' })).toBeVisible();
});

test('Create image: a click whose press makes a field show its error still lands on the button', async ({
  page,
}) => {
  await page.goto('/');
  const count = page.getByRole('spinbutton', { name: 'Number of images' });
  const submit = page.getByRole('button', { name: 'Generate images' });
  await page.getByRole('textbox', { name: 'Prompt' }).fill('A lighthouse at dawn');
  await count.fill('9'); // invalid, never validated yet: leaving the field would show the error
  await submit.scrollIntoViewIfNeeded();
  const before = (await submit.boundingBox())!;
  await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
  await page.mouse.down();
  // Between press and release the button must stay under the pointer.
  expect((await submit.boundingBox())!.y).toBe(before.y);
  await page.mouse.up();
  // The click reached the form: it validated and moved focus to the refused field.
  await expect(count).toBeFocused();
  await expect(count).toHaveAttribute('aria-invalid', 'true');
});

test('Translate video: one click after correcting the video URL and the speakers creates the tasks', async ({
  page,
}) => {
  await page.goto('/translate');
  await page.getByRole('group', { name: 'Target languages' }).getByText('Japanese', { exact: true }).click();
  const video = page.getByRole('textbox', { name: 'Video URL' });
  const speakers = page.getByRole('spinbutton', { name: 'Number of speakers' });
  const submit = page.getByRole('button', { name: 'Translate video' });
  await video.fill('ftp://example.com/a.mp4');
  await speakers.fill('-1');
  await mouseClick(page, submit);
  await expect(video).toHaveAttribute('aria-invalid', 'true');

  await video.fill(new URL('/emulator/samples/video.mp4', page.url()).toString());
  await speakers.fill('2');
  await expect(video).not.toHaveAttribute('aria-invalid', 'true');
  await expect(speakers).not.toHaveAttribute('aria-invalid', 'true');
  await mouseClick(page, submit);
  await expect(page.getByRole('region', { name: /1 translation task created/ })).toBeVisible();
});
