// @vitest-environment jsdom
// The file controls by role: a viewer is not offered a file dialog nor takes a dropped file in (the
// server would refuse the upload); a creator is.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@/api/roles';
import { testConsoleInfo, withConsoleInfo } from '@/testing/console-info';
import { FilePickButton, useFileDrop } from './file-controls';
import { IMAGE_ACCEPT } from './upload-accept';

afterEach(cleanup);

const renderAs = (role: Role, ui: ReactElement) =>
  render(
    withConsoleInfo(testConsoleInfo({ user: { id: `u-${role}`, name: role, role, source: 'local' } }), ui),
  );

function DropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const { props } = useFileDrop(onFiles);
  return (
    <div role="region" aria-label="Drop here" {...props}>
      <FilePickButton accept={IMAGE_ACCEPT} onFiles={onFiles}>
        Upload images
      </FilePickButton>
    </div>
  );
}

const drop = () =>
  fireEvent.drop(screen.getByRole('region', { name: 'Drop here' }), {
    dataTransfer: { files: [new File(['x'], 'a.png', { type: 'image/png' })], types: ['Files'] },
  });

describe('file controls by role', () => {
  it('a creator picks and drops files', () => {
    const onFiles = vi.fn();
    renderAs('creator', <DropZone onFiles={onFiles} />);
    expect(screen.getByRole('button', { name: 'Upload images' })).toBeEnabled();
    drop();
    expect(onFiles).toHaveBeenCalledTimes(1);
  });

  it('a viewer gets a disabled pick button that says why, and a drop takes nothing in', () => {
    const onFiles = vi.fn();
    renderAs('viewer', <DropZone onFiles={onFiles} />);
    const pick = screen.getByRole('button', { name: 'Upload images' });
    expect(pick).toBeDisabled();
    expect(pick).toHaveAttribute('title', expect.stringMatching(/Only creators and admins can upload files/));
    drop();
    expect(onFiles).not.toHaveBeenCalled();
  });
});
