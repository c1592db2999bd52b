// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { startFinishNotifier } from './finish-notifier';
import { addLookedUpTasks, applyTaskUpdate, recordCreatedTasks } from './history';
import { emptyHistory } from '@/testing/history';

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(async () => {
  await emptyHistory();
});

describe('finished while hidden', () => {
  it('counts tasks that finish while the tab is hidden in the title, then clears it', async () => {
    document.title = 'Tasks · Media Console';
    startFinishNotifier();
    await recordCreatedTasks('image_to_video', {}, [{ task_id: 'a' }, { task_id: 'b' }, { task_id: 'c' }]);
    await applyTaskUpdate('a', 'image_to_video', { status: 'SUCCEEDED' }, 'poll');
    expect(document.title).toBe('Tasks · Media Console');
    setVisibility('hidden');
    await applyTaskUpdate('b', 'image_to_video', { status: 'SUCCEEDED' }, 'poll');
    await applyTaskUpdate('c', 'image_to_video', { status: 'FAILED', error_message: 'x' }, 'callback');
    expect(document.title).toBe('(2) finished · Tasks · Media Console');
    setVisibility('visible');
    expect(document.title).toBe('Tasks · Media Console');
  });

  it('fires a notification only when the user opted in and the browser allows it', async () => {
    const shown: string[] = [];
    class FakeNotification {
      static permission = 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string) {
        shown.push(title);
      }
      close() {}
    }
    vi.stubGlobal('Notification', FakeNotification);
    startFinishNotifier();
    await recordCreatedTasks('image_generate', {}, [{ task_id: 'n1' }, { task_id: 'n2' }]);
    setVisibility('hidden');
    await applyTaskUpdate('n1', 'image_generate', { status: 'SUCCEEDED' }, 'poll');
    expect(shown).toEqual([]);
    localStorage.setItem('media-console:notify-finished', '1');
    await addLookedUpTasks([{ id: 'l1', kind: 'image_generate' }]);
    await applyTaskUpdate('l1', 'image_generate', { status: 'FAILED' }, 'poll');
    expect(shown).toEqual(['Image generation task failed']);
    // The person's own requests are told once per request by the request notifier, not per task here.
    await applyTaskUpdate('n2', 'image_generate', { status: 'FAILED' }, 'poll');
    expect(shown).toEqual(['Image generation task failed']);
    setVisibility('visible');
    localStorage.clear();
    vi.unstubAllGlobals();
  });
});
