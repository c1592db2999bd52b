// The store tells its listeners of a new callback by the time its append resolves (the event streams
// catch up at once), not of a duplicate; closed, it stores nothing more and tells no one.
import { beforeEach, describe, expect, it } from 'vitest';
import type { CallbackBody } from '../../src/api/schemas';
import { imageGenerateCallback, videoTranslateCallback } from '../testing/callback-fixtures';
import { oneTurn } from '../testing/counting-reads';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { CallbackStore } from './store';

beforeEach(async () => {
  await resetTestDatabase();
});

describe('CallbackStore', () => {
  it('tells its listeners of a new callback before the append resolves, and of a duplicate never', async () => {
    const store = new CallbackStore(testDatabase());
    expect(await store.lastId()).toBe(0);
    let told = 0;
    store.subscribe(() => told++);
    await store.append(videoTranslateCallback as CallbackBody);
    expect(told).toBeGreaterThan(0);
    // The database's own notice (for the other instances) comes too: wait until it has.
    await oneTurn();
    const afterNew = told;
    expect(await store.append(videoTranslateCallback as CallbackBody)).toMatchObject({ duplicate: true });
    await oneTurn();
    expect(told).toBe(afterNew);
    expect(await store.lastId()).toBe(1);
    await store.close();
  });

  it('once closed, refuses what was waiting for its group and tells no one of others’ callbacks', async () => {
    const store = new CallbackStore(testDatabase());
    let told = 0;
    store.subscribe(() => told++);
    // Still gathering its group when the store closes: refused, so the sender delivers it again.
    const refused = expect(store.append(imageGenerateCallback as CallbackBody)).rejects.toThrow(
      'The callback store is closed',
    );
    await store.close();
    await store.close();
    await refused;
    const other = new CallbackStore(testDatabase());
    const toldWhenClosed = told;
    await other.append(videoTranslateCallback as CallbackBody);
    await oneTurn();
    expect(told).toBe(toldWhenClosed);
    await expect(store.lastId()).rejects.toThrow('The callback store is closed');
    await other.close();
  });
});
