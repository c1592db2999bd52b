// The demo's board of the team's picks and a live share link to it, so a stakeholder demo can show
// both from the first start: the newest finished example images, a clip and a translation, on one
// board made by one of the seeded creators, shared for 30 days. The link's token is random like any
// other (only its hash is stored), so it is printed once at start for the presenter.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database';
import { newShareToken, shareTokenHash } from '../shares/tokens';
import { DEMO_PEOPLE } from './demo-history';

export const DEMO_BOARD_ID = 'b-demo-team-picks';
export const DEMO_BOARD_NAME = 'Team picks: spring campaign';
const DEMO_BOARD_DESCRIPTION =
  'The results we want to show: landscapes for the hero banner, a product shot, and the first clip.';
const SHARE_DAYS = 30;
const DAY = 86_400_000;
/** How many of each kind go on the board. */
const PICKS = { image_generate: 6, image_to_video: 2, video_translate: 1 } as const;

/** Makes the board and its link from the finished tasks among `ids`; answers the link's path. */
export async function seedDemoBoard(
  db: Db,
  ids: readonly string[],
  now = Date.now(),
): Promise<string | undefined> {
  if (!ids.length) return undefined;
  const finished = await db
    .selectFrom('tasks')
    .select(['id', 'kind'])
    .where('id', 'in', [...ids])
    .where('status', '=', 'SUCCEEDED')
    .orderBy('created_at', 'desc')
    .execute();
  const picks = (Object.keys(PICKS) as (keyof typeof PICKS)[]).flatMap((kind) =>
    finished.filter((task) => task.kind === kind).slice(0, PICKS[kind]),
  );
  if (!picks.length) return undefined;
  const maya = DEMO_PEOPLE.maya;
  const token = newShareToken();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('boards')
      .values({
        id: DEMO_BOARD_ID,
        name: DEMO_BOARD_NAME,
        description: DEMO_BOARD_DESCRIPTION,
        created_by_id: maya.id,
        created_by_name: maya.name,
      })
      .execute();
    await trx
      .insertInto('board_items')
      .values(
        picks.map((task, position) => ({
          board_id: DEMO_BOARD_ID,
          task_id: task.id,
          position,
          added_by_name: maya.name,
        })),
      )
      .execute();
    await trx
      .insertInto('shares')
      .values({
        id: `sh-${randomUUID()}`,
        token_hash: shareTokenHash(token),
        board_id: DEMO_BOARD_ID,
        title: DEMO_BOARD_NAME,
        created_by_id: maya.id,
        created_by_name: maya.name,
        created_at: new Date(now),
        expires_at: new Date(now + SHARE_DAYS * DAY),
      })
      .execute();
  });
  // Kept first, before the 30 days of history queued ahead of them: the link shows its results at once.
  await db
    .updateTable('result_copies')
    .set({ next_attempt_at: new Date(now - DAY) })
    .where(
      'task_id',
      'in',
      picks.map((task) => task.id),
    )
    .where('state', '=', 'queued')
    .execute();
  return `/s/${token}`;
}
