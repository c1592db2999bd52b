// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { RequestFiles } from './request-files';

afterEach(cleanup);

it('names each uploaded file by the field it went into, linking only http(s) URLs', () => {
  render(
    <RequestFiles
      files={[
        { field: 'reference_images[0]', url: 'https://cdn.example.com/u/1.png', name: 'moodboard.png' },
        { field: 'image_url', url: 'javascript:alert(1)', name: 'first.png' },
        { field: 'video_url', url: 'https://cdn.example.com/v/2.mp4', name: 'interview.mp4' },
      ]}
    />,
  );
  const items = screen.getAllByRole('listitem').map((item) => item.textContent);
  expect(items).toEqual(['reference image: moodboard.png', 'start frame: first.png', 'video: interview.mp4']);
  expect(screen.getByRole('link', { name: 'moodboard.png' })).toHaveAttribute(
    'href',
    'https://cdn.example.com/u/1.png',
  );
  expect(screen.queryByRole('link', { name: 'first.png' })).toBeNull();
});

it('shows nothing for a task without uploaded files', () => {
  const { container } = render(<RequestFiles files={undefined} />);
  expect(container).toBeEmptyDOMElement();
});
