// "Save to board" on a creation form: the board chosen before generating, kept for this
// tab (sessionStorage), sent with each creation as a header so the server puts the new tasks on it
// when it records them. One small module the client reads, so no form's submit code changes.

/** BOARD_HEADER of ./boards.ts, spelled here so the client (in every screen) does not load that file. */
const BOARD_HEADER = 'x-console-board';
const STORAGE_KEY = 'media-console:creation-board';

export interface ChosenBoard {
  id: string;
  name: string;
}

function stored(): ChosenBoard | undefined {
  try {
    const value = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<ChosenBoard> | null;
    return value && typeof value.id === 'string' && typeof value.name === 'string'
      ? { id: value.id, name: value.name }
      : undefined;
  } catch {
    return undefined;
  }
}

let chosen: ChosenBoard | undefined = stored();

/** The board new creations go to, or undefined for none. */
export const creationBoard = (): ChosenBoard | undefined => chosen;

export function setCreationBoard(board: ChosenBoard | undefined): void {
  chosen = board;
  try {
    if (board) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(board));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Private mode: kept for this page only.
  }
}

/** The header of the chosen board, for a POST (the server reads it on creations only). */
export const boardChoiceHeaders = (): Record<string, string> => (chosen ? { [BOARD_HEADER]: chosen.id } : {});
