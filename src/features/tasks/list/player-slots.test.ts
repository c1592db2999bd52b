import { describe, expect, it } from 'vitest';
import { activePlayers, claimPlayer, MAX_PLAYERS, releasePlayer } from './player-slots';

describe('player slots', () => {
  it('keeps at most MAX_PLAYERS players, returning the oldest to its poster', () => {
    for (let i = 1; i <= MAX_PLAYERS + 2; i++) claimPlayer(`t${i}`);
    expect(activePlayers()).toHaveLength(MAX_PLAYERS);
    expect(activePlayers()).not.toContain('t1');
    expect(activePlayers().at(-1)).toBe(`t${MAX_PLAYERS + 2}`);
  });

  it('moves a replayed card to the newest slot and frees released ones', () => {
    claimPlayer('a');
    claimPlayer('b');
    claimPlayer('a');
    expect(activePlayers().at(-1)).toBe('a');
    releasePlayer('a');
    expect(activePlayers()).not.toContain('a');
  });
});
