// What a person is told when one of their requests has finished: one notification per request (four
// images are one request), once every task of it has ended, saying how many succeeded.
import { isTerminalStatus } from '@/api/status';

export interface FinishedRequest {
  id: string;
  kind: string;
  /** The prompt, the output name or the file's name (server/tasks/request-fields.ts). */
  title?: string;
  tasks: readonly { status: string }[];
}

export interface RequestNotice {
  title: string;
  body: string;
  /** One per request: a second tab's notice for it replaces the first rather than adding one. */
  tag: string;
}

const NOUNS: Record<string, [string, string]> = {
  image_generate: ['image', 'images'],
  video_translate: ['translation', 'translations'],
  image_to_video: ['video', 'videos'],
};

/** The notice for a request, or undefined while any of its tasks is still running. */
export function requestNotice(request: FinishedRequest): RequestNotice | undefined {
  const { tasks } = request;
  if (tasks.length === 0 || !tasks.every((task) => isTerminalStatus(task.status))) return undefined;
  const [one, many] = NOUNS[request.kind] ?? ['task', 'tasks'];
  const total = tasks.length;
  const failed = tasks.filter((task) => task.status !== 'SUCCEEDED').length;
  const title =
    failed === 0
      ? total === 1
        ? `Your ${one} is ready`
        : `Your ${total} ${many} are ready`
      : failed === total
        ? total === 1
          ? `Your ${one} failed`
          : `Your ${total} ${many} failed`
        : `${total - failed} of ${total} ${many} ready, ${failed} failed`;
  return { title, body: request.title ?? '', tag: `request:${request.id}` };
}
