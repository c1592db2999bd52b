// @vitest-environment jsdom
// The side card ("What you will get") of each form flags a value the form would refuse instead of
// repeating it: "9 (one task each)" and "Speakers -1" become "Needs fixing" with the field's message.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithClient, stubFetch } from '@/testing/form-test-utils';
import { ImageGenerateForm } from '@/features/image-generate/form/image-generate-form';
import { ImageToVideoForm } from '@/features/image-to-video/image-to-video-form';
import { VideoTranslateForm } from '@/features/video-translate/video-translate-form';
import { rangeProblem, SummaryRow } from './form-summary';

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const fill = (element: HTMLElement, value: string) => fireEvent.change(element, { target: { value } });

/** The value cell of a summary row, found by its term. */
function summaryValue(term: string) {
  const card = screen.getByRole('region', { name: 'What you will get' });
  const dt = within(card).getByText(term, { selector: 'dt' });
  return dt.nextElementSibling as HTMLElement;
}

describe('rangeProblem', () => {
  const bounds = { min: 1, max: 8 };
  it('says nothing for a value inside the bounds, at both ends, or a blank field', () => {
    expect(rangeProblem(1, bounds, 'Number of images')).toBeUndefined();
    expect(rangeProblem(8, bounds, 'Number of images')).toBeUndefined();
    expect(rangeProblem(Number.NaN, bounds, 'Number of images')).toBeUndefined();
    expect(rangeProblem(undefined, bounds, 'Number of images')).toBeUndefined();
  });
  it("uses the request schema's words just outside them", () => {
    expect(rangeProblem(0, bounds, 'Number of images')).toBe('Number of images must be at least 1');
    expect(rangeProblem(9, bounds, 'Number of images')).toBe('Number of images must be at most 8');
    expect(rangeProblem(2.5, bounds, 'Number of images')).toBe('Number of images must be a whole number');
  });
});

describe('SummaryRow', () => {
  it('shows the value, or "Needs fixing" with the message in the error colour instead of it', () => {
    const { rerender } = render(
      <dl>
        <SummaryRow term="Images">9 (one task each)</SummaryRow>
      </dl>,
    );
    expect(screen.getByText('9 (one task each)')).toBeInTheDocument();
    rerender(
      <dl>
        <SummaryRow term="Images" problem="Number of images must be at most 8">
          9 (one task each)
        </SummaryRow>
      </dl>,
    );
    expect(screen.queryByText('9 (one task each)')).not.toBeInTheDocument();
    const cell = screen.getByText('Needs fixing', { exact: false });
    expect(cell).toHaveTextContent('Needs fixing: Number of images must be at most 8');
    expect(cell).toHaveClass('text-red-700');
  });
});

describe('the forms’ side cards', () => {
  it('Create image: 9 images and an invalid reference URL are flagged, 8 is shown', async () => {
    stubFetch();
    renderWithClient(<ImageGenerateForm />);
    const count = screen.getByRole('spinbutton', { name: 'Number of images' });
    fill(count, '9');
    expect(summaryValue('Images')).toHaveTextContent('Needs fixing: Number of images must be at most 8');
    expect(summaryValue('Images')).not.toHaveTextContent('one task each');
    fill(count, '8');
    expect(summaryValue('Images')).toHaveTextContent('8 (one task each)');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add reference image' }));
    fill(screen.getByRole('textbox', { name: 'Reference image URL 1' }), 'not a url');
    expect(summaryValue('Reference images')).toHaveTextContent(
      'Needs fixing: Enter an http:// or https:// image URL',
    );
    fill(screen.getByRole('textbox', { name: 'Reference image URL 1' }), 'https://example.com/a.png');
    expect(summaryValue('Reference images')).toHaveTextContent(/^1$/);
  });

  it('Create image: an empty or invalid reference row is not counted', async () => {
    stubFetch();
    renderWithClient(<ImageGenerateForm />);
    const user = userEvent.setup();
    const add = screen.getByRole('button', { name: 'Add reference image' });
    await user.click(add);
    await user.click(add);
    await user.click(add);
    // Three empty rows: nothing to count.
    expect(summaryValue('Reference images')).toHaveTextContent(/^None$/);
    fill(screen.getByRole('textbox', { name: 'Reference image URL 1' }), 'https://example.com/a.png');
    fill(screen.getByRole('textbox', { name: 'Reference image URL 2' }), 'ftp://example.com/b.png');
    // One good link, one refused, one empty: one counted, the refused one flagged.
    expect(summaryValue('Reference images')).toHaveTextContent(
      'Needs fixing: 1 counted; Enter an http:// or https:// image URL',
    );
    expect(summaryValue('Reference images')).not.toHaveTextContent(/\b[23]\b/);
  });

  it('Translate video: speakers -1 is flagged, 0 says the service detects them', () => {
    stubFetch();
    renderWithClient(<VideoTranslateForm />);
    const speakers = screen.getByRole('spinbutton', { name: 'Number of speakers' });
    fill(speakers, '-1');
    expect(summaryValue('Speakers')).toHaveTextContent('Needs fixing: Number of speakers must be at least 0');
    expect(summaryValue('Speakers')).not.toHaveTextContent('-1');
    fill(speakers, '0');
    expect(summaryValue('Speakers')).toHaveTextContent('Detected by the service');
    fill(speakers, '2');
    expect(summaryValue('Speakers')).toHaveTextContent(/^2$/);
  });

  it('Image to video: 5 videos are flagged, 4 are shown', () => {
    stubFetch();
    renderWithClient(<ImageToVideoForm />);
    const count = screen.getByRole('spinbutton', { name: 'Number of videos' });
    fill(count, '5');
    expect(summaryValue('Videos')).toHaveTextContent('Needs fixing: Number of videos must be at most 4');
    fill(count, '4');
    expect(summaryValue('Videos')).toHaveTextContent('4 (one task each)');
  });
});
