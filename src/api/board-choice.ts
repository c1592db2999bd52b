// "Save to board" on a creation form (issue 44): the board chosen before generating, kept for this
// tab (sessionStorage), sent with each creation as a header so the server puts the new tasks on it
// when it records them. One small module the client reads, so no form's submit code changes.

/** BOARD_HEADER of ./boards.ts, spelled here so the client (in every screen) does not load that file. */
const BOARD_HEADER = 'x-console-board';

const STORAGE_KEY = 'media-console:creation-board';
let chosen: string | undefined;
try {
  chosen = sessionStorage.getItem(STORAGE_KEY) ?? undefined;
} catch {
  chosen = undefined;
}

/** The board new creations go to, or undefined for none. */
export const creationBoard = (): string | undefined => chosen;

export function setCreationBoard(id: string | undefined): void {
  chosen = id || undefined;
  try {
    if (chosen) sessionStorage.setItem(STORAGE_KEY, chosen);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Private mode: kept for this page only.
  }
}

/** The header of the chosen board, for a POST (the server reads it on creations only). */
export const boardChoiceHeaders = (): Record<string, string> => (chosen ? { [BOARD_HEADER]: chosen } : {});
