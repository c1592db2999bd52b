// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { saveNotificationsWanted } from '@/features/tasks/history/notify-settings';
import { requestNotificationsWanted, useRequestNotificationsWanted } from './notify-wanted';

afterEach(() => localStorage.clear());

it('reads the setting the Tasks screen saves', () => {
  expect(requestNotificationsWanted()).toBe(false);
  saveNotificationsWanted(true);
  expect(requestNotificationsWanted()).toBe(true);
  saveNotificationsWanted(false);
  expect(requestNotificationsWanted()).toBe(false);
});

it('follows the setting when a storage event says it changed', () => {
  const { result } = renderHook(() => useRequestNotificationsWanted());
  expect(result.current).toBe(false);
  saveNotificationsWanted(true);
  act(() => {
    dispatchEvent(new StorageEvent('storage'));
  });
  expect(result.current).toBe(true);
});
