import { describe, expect, it } from 'vitest';
import { BOARD_DESCRIPTION_MAX, BOARD_NAME_MAX, checkBoardFields } from './boards';

describe('checkBoardFields (the form and the server alike)', () => {
  it(`takes a name of ${BOARD_NAME_MAX} characters, trimmed, and refuses one more`, () => {
    expect(checkBoardFields({ name: ` ${'é'.repeat(BOARD_NAME_MAX)} ` })).toEqual({
      name: 'é'.repeat(BOARD_NAME_MAX),
    });
    expect(checkBoardFields({ name: 'n'.repeat(BOARD_NAME_MAX + 1) })).toEqual({
      field: 'name',
      msg: `A board's name is at most ${BOARD_NAME_MAX} characters`,
    });
    // Characters, not UTF-16 units: 80 emoji fit.
    expect(checkBoardFields({ name: '🦊'.repeat(BOARD_NAME_MAX) })).not.toHaveProperty('field');
  });

  it('needs a name unless it changes other fields only', () => {
    expect(checkBoardFields({ name: '   ' })).toMatchObject({ field: 'name' });
    expect(checkBoardFields({})).toMatchObject({ field: 'name' });
    expect(checkBoardFields({ description: 'd' }, true)).toEqual({ description: 'd' });
    expect(checkBoardFields({ name: 'a\0b' })).toMatchObject({ field: 'name' });
  });

  it(`takes a description of ${BOARD_DESCRIPTION_MAX} characters and refuses one more; blank is none`, () => {
    const exact = 'd'.repeat(BOARD_DESCRIPTION_MAX);
    expect(checkBoardFields({ name: 'n', description: exact })).toEqual({ name: 'n', description: exact });
    expect(checkBoardFields({ name: 'n', description: `${exact}d` })).toMatchObject({ field: 'description' });
    expect(checkBoardFields({ name: 'n', description: '  ' })).toEqual({ name: 'n', description: null });
    expect(checkBoardFields({ name: 'n', description: 5 })).toMatchObject({ field: 'description' });
  });
});
