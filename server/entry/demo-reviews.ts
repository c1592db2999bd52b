// The demo team's reviews (DEMO=1): on a handful of the newest finished results, decisions and
// comments by the people who would make them (the viewer asks for changes, the admin approves, a
// creator answers), so the cards' badges, the Review panel and the "changes requested" view have
// something to show from the first screen. Deterministic, placed after each result finished.
import type { ReviewDecision } from '../../src/api/reviews';
import type { Db } from '../db/database';

interface DemoReviewer {
  id: string;
  name: string;
}

type Said = { who: DemoReviewer; decision?: ReviewDecision; comment?: string };

/** What the team says of the newest results, newest first: one script a result. */
function scripts(people: Record<'maya' | 'jonas' | 'priya' | 'tom', DemoReviewer>): Said[][] {
  const { maya, jonas, priya, tom } = people;
  return [
    [
      { who: tom, decision: 'changes_requested', comment: 'Can we get a straighter horizon for the deck?' },
      { who: maya, comment: 'On it: making two more with a level horizon.' },
    ],
    [
      { who: priya, decision: 'approved', comment: 'Approved for the newsletter.' },
      { who: jonas, decision: 'approved' },
    ],
    [{ who: tom, decision: 'approved', comment: 'Love the colours on this one.' }],
    [
      { who: priya, decision: 'changes_requested', comment: 'Leave room top right for the logo, please.' },
      { who: jonas, comment: 'Noted, I will crop a version with space for it.' },
    ],
    [{ who: jonas, comment: 'Would this work as the board cover?' }],
    [{ who: maya, decision: 'approved' }],
  ];
}

interface FinishedTask {
  id: string;
  kind: string;
  status: string;
  request_id: string;
  finished_at: Date;
}

export function buildDemoReviews(
  tasks: readonly FinishedTask[],
  people: Record<'maya' | 'jonas' | 'priya' | 'tom', DemoReviewer>,
  now: number,
) {
  // The first result of each of the newest succeeded requests.
  const seen = new Set<string>();
  const picked = [...tasks]
    // Images and clips: what a stakeholder looks at first (and what the comments speak of).
    .filter((task) => task.status === 'SUCCEEDED' && task.kind !== 'video_translate')
    .sort((a, b) => b.finished_at.getTime() - a.finished_at.getTime())
    .filter((task) => !seen.has(task.request_id) && seen.add(task.request_id));
  const decisions: {
    task_id: string;
    user_id: string;
    user_name: string;
    decision: ReviewDecision;
    decided_at: Date;
  }[] = [];
  const comments: {
    id: string;
    task_id: string;
    user_id: string;
    user_name: string;
    body: string;
    decision: ReviewDecision | null;
    created_at: Date;
  }[] = [];
  scripts(people).forEach((script, n) => {
    const task = picked[n];
    if (!task) return;
    script.forEach((said, step) => {
      const at = new Date(
        Math.min(task.finished_at.getTime() + (step + 1) * 7 * 60_000, now - (step + 1) * 60_000),
      );
      const who = { user_id: said.who.id, user_name: said.who.name };
      if (said.decision)
        decisions.push({ task_id: task.id, ...who, decision: said.decision, decided_at: at });
      if (said.comment)
        comments.push({
          id: `rc-demo-${n}-${step}`,
          task_id: task.id,
          ...who,
          body: said.comment,
          decision: said.decision ?? null,
          created_at: at,
        });
    });
  });
  return { decisions, comments };
}

export async function seedDemoReviews(
  trx: Db,
  tasks: readonly FinishedTask[],
  people: Record<'maya' | 'jonas' | 'priya' | 'tom', DemoReviewer>,
  now: number,
): Promise<void> {
  const { decisions, comments } = buildDemoReviews(tasks, people, now);
  if (decisions.length) await trx.insertInto('review_decisions').values(decisions).execute();
  if (comments.length) await trx.insertInto('review_comments').values(comments).execute();
}
