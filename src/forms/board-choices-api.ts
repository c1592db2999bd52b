// GET /__console/boards, for the board picker of a creation form: each board's id and name only.
// Loaded with the picker, on first use.
import type { ChosenBoard } from '@/api/board-choice';
import { consoleData } from '@/api/console-fetch';

export async function listBoardChoices(signal: AbortSignal): Promise<ChosenBoard[]> {
  const data = await consoleData<{ boards?: ChosenBoard[] }>('/__console/boards', { signal });
  return (data.boards ?? []).map(({ id, name }) => ({ id, name }));
}
