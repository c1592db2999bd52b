// What one creation spends, as the spending limits count it: tasks, images, and seconds of video
// (a translation's length is known only once the service has made it). The server charges by this
// (server/limits) and the console says it before a re-run; plain values only, the server imports it.

/** What one creation asks for; seconds are unknown (0) for a translation until the service says. */
export interface CreationCost {
  tasks: number;
  images: number;
  videoSeconds: number;
  /** The creation makes video whose length is not known at creation (a translation). */
  videoUnknown: boolean;
}

/** Image to video's default length when a body names none (image-to-video/image-to-video-rules.ts). */
export const DEFAULT_SECONDS = { V: 8, KL: 5 } as const;

const intIn = (value: unknown, min: number, max: number, fallback: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;

/** The cost of a creation body of `kind`; a body the service will refuse costs what it reads as. */
export function costOf(kind: string, body: unknown): CreationCost {
  const params = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (kind === 'image_generate') {
    const n = intIn(params.generate_count, 1, 8, 1);
    return { tasks: n, images: n, videoSeconds: 0, videoUnknown: false };
  }
  if (kind === 'image_to_video') {
    const n = intIn(params.generate_count, 1, 4, 1);
    const fallback = params.model === 'KL' ? DEFAULT_SECONDS.KL : DEFAULT_SECONDS.V;
    const seconds = intIn(params.duration, 1, 600, fallback);
    return { tasks: n, images: 0, videoSeconds: n * seconds, videoUnknown: false };
  }
  // The service makes one task per language it is sent: exactly that many are charged. The list's
  // length is bounded before this (translationListProblem), so it cannot be inflated past a limit.
  const languages = Array.isArray(params.target_languages) ? params.target_languages.length : 1;
  return { tasks: Math.max(1, languages), images: 0, videoSeconds: 0, videoUnknown: true };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "1 task and 4 images", "2 tasks and 16 seconds of video", "1 task; its video's length counts once made". */
export function costText(cost: CreationCost): string {
  const tasks = plural(cost.tasks, 'task', 'tasks');
  if (cost.images) return `${tasks} and ${plural(cost.images, 'image', 'images')}`;
  if (cost.videoSeconds) return `${tasks} and ${plural(cost.videoSeconds, 'second', 'seconds')} of video`;
  if (cost.videoUnknown) return `${tasks}, and the video minutes it makes once the service has made it`;
  return tasks;
}
