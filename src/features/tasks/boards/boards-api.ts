// The team's boards as the browser reads and changes them (server/boards/routes.ts), their query
// keys, and the live stream that says when any board (or my stars) changed on any instance.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { BoardSummary } from '@/api/boards';
import { STARS_KEY } from '@/features/tasks/shared/stars';
import { toTeamTask, type TeamTask } from '@/features/tasks/team/team-tasks';

export type Board = BoardSummary & { cover?: TeamTask };

export const BOARDS_KEY = ['boards'] as const;
export const boardsKey = (q: string) => ['boards', 'list', q] as const;
export const boardKey = (id: string) => ['boards', 'one', id] as const;

/** A refusal of the server, with the field it names when it names one. */
export class BoardError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly field?: string,
  ) {
    super(message);
  }
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, {
    ...init,
    headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });
  const body = (await response.json().catch(() => ({}))) as { msg?: string; field?: string; data?: T };
  if (!response.ok)
    throw new BoardError(
      body.msg ?? `The console answered HTTP ${response.status}`,
      response.status,
      body.field,
    );
  return body.data as T;
}

const toBoard = (value: BoardSummary & { cover?: unknown }): Board => ({
  ...value,
  cover: value.cover ? toTeamTask(value.cover) : undefined,
});

export async function fetchBoards(q: string, signal?: AbortSignal): Promise<Board[]> {
  const data = await call<{ boards: (BoardSummary & { cover?: unknown })[] }>(
    `/__console/boards?${new URLSearchParams(q ? { q } : {})}`,
    { signal },
  );
  return data.boards.map(toBoard);
}

export async function fetchBoard(
  id: string,
  signal?: AbortSignal,
): Promise<{ board: Board; items: TeamTask[] } | null> {
  try {
    const data = await call<{ board: BoardSummary; items: unknown[] }>(
      `/__console/boards/${encodeURIComponent(id)}`,
      { signal },
    );
    return {
      board: toBoard(data.board),
      items: data.items.map(toTeamTask).filter((task): task is TeamTask => task !== undefined),
    };
  } catch (error) {
    if (error instanceof BoardError && error.status === 404) return null;
    throw error;
  }
}

const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });
const boardPath = (id: string, rest = '') => `/__console/boards/${encodeURIComponent(id)}${rest}`;

export const createBoard = (fields: { name: string; description?: string; ids?: readonly string[] }) =>
  call<{ board: BoardSummary }>('/__console/boards', json('POST', fields)).then((data) => data.board);
export const changeBoard = (
  id: string,
  fields: { name?: string; description?: string | null; coverTaskId?: string | null },
) => call(boardPath(id), json('PATCH', fields));
export const deleteBoard = (id: string) => call(boardPath(id), { method: 'DELETE' });
export const addToBoard = (id: string, ids: readonly string[]) =>
  call(boardPath(id, '/items'), json('POST', { ids }));
export const removeFromBoard = (id: string, ids: readonly string[]) =>
  call(boardPath(id, '/items/remove'), json('POST', { ids }));
export const reorderBoard = (id: string, ids: readonly string[]) =>
  call(boardPath(id, '/order'), json('PUT', { ids }));
export const boardZip = (id: string) => boardPath(id, '/zip');

/**
 * While mounted: every board change on any instance reads the boards again, a change of my stars
 * reads them again. EventSource reconnects by itself; on reconnect everything is read again too.
 */
export function useBoardsFeed(): void {
  const client = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/__console/boards/events');
    const boards = () => void client.invalidateQueries({ queryKey: BOARDS_KEY });
    const stars = () => void client.invalidateQueries({ queryKey: STARS_KEY });
    let first = true;
    source.addEventListener('ready', () => {
      if (!first) {
        boards();
        stars();
      }
      first = false;
    });
    source.addEventListener('board', boards);
    source.addEventListener('stars', stars);
    return () => source.close();
  }, [client]);
}
