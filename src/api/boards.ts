// Stars, boards and "More like this": the bounds the server enforces and the browser says
// before asking, and the shapes the server answers. Plain values: the server loads this file too.

/** A person may star at most this many tasks (the Starred view reads them all as a set). */
export const STARS_MAX = 5000;
/** The team keeps at most this many boards. */
export const BOARDS_MAX = 200;
/** A board holds at most this many results (its page, its zip and its reorder read them all). */
export const BOARD_ITEMS_MAX = 500;
/** A board's name, in characters (trimmed; at least one). */
export const BOARD_NAME_MAX = 80;
/** A board's description, in characters (optional). */
export const BOARD_DESCRIPTION_MAX = 500;
/** "More like this" makes the same request again at most this many times at once. */
export const MORE_LIKE_THIS_MAX = 4;

/** The header a creation carries to have its tasks put on a board when they are recorded. */
export const BOARD_HEADER = 'x-console-board';
/** The header of a "More like this" creation: the request it makes again. */
export const PARENT_REQUEST_HEADER = 'x-console-parent-request';

export interface BoardSummary {
  id: string;
  name: string;
  description: string | null;
  /** The cover: the chosen task, else the board's first result; none for an empty board. */
  coverTaskId: string | null;
  itemCount: number;
  createdBy: string | null;
  createdById: string | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * A board's name and description as the server stores them, or why not (a sentence for the field).
 * The same check on both sides, so the form says what the server would.
 */
export function checkBoardFields(
  input: { name?: unknown; description?: unknown },
  partial = false,
): { name?: string; description?: string | null } | { field: 'name' | 'description'; msg: string } {
  const out: { name?: string; description?: string | null } = {};
  if (input.name !== undefined || !partial) {
    if (typeof input.name !== 'string' || !input.name.trim())
      return { field: 'name', msg: 'Give the board a name' };
    const name = input.name.trim();
    if ([...name].length > BOARD_NAME_MAX)
      return { field: 'name', msg: `A board's name is at most ${BOARD_NAME_MAX} characters` };
    if (name.includes('\0')) return { field: 'name', msg: 'The name cannot hold a NUL character' };
    out.name = name;
  }
  if (input.description !== undefined && input.description !== null) {
    if (typeof input.description !== 'string')
      return { field: 'description', msg: 'The description is text' };
    const description = input.description.trim();
    if ([...description].length > BOARD_DESCRIPTION_MAX)
      return {
        field: 'description',
        msg: `A description is at most ${BOARD_DESCRIPTION_MAX} characters`,
      };
    if (description.includes('\0'))
      return { field: 'description', msg: 'The description cannot hold a NUL character' };
    out.description = description || null;
  } else if (input.description === null) out.description = null;
  return out;
}
