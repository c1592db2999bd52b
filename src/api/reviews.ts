// Comments and decisions on results: the bounds the server enforces and the browser says before
// asking, and the shapes the server answers. Plain values: the server loads this file too.

/** What a person can decide on a result. One decision per person and result: the latest wins. */
export const REVIEW_DECISIONS = ['approved', 'changes_requested'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const DECISION_LABELS: Record<ReviewDecision, string> = {
  approved: 'Approved',
  changes_requested: 'Changes requested',
};

/** A comment, in characters (trimmed; at least one). */
export const REVIEW_COMMENT_MAX = 1000;
/** A result keeps at most this many comments (its panel reads them all). */
export const REVIEW_COMMENTS_MAX = 200;

/**
 * What a task's view carries about its review, for the card's badge: how many people approved or
 * asked for changes, how many comments, and when the last of them was made (epoch ms). Absent when
 * nobody has said anything.
 */
export interface ReviewSummary {
  approved: number;
  changesRequested: number;
  comments: number;
  at: number;
}

export interface ReviewDecisionView {
  userId: string;
  name: string;
  decision: ReviewDecision;
  at: number;
}

export interface ReviewCommentView {
  id: string;
  userId: string;
  name: string;
  body: string;
  /** The decision the comment was sent with, if any. */
  decision: ReviewDecision | null;
  at: number;
}

/** A result's whole review: every person's current decision (newest first), the comments (oldest first). */
export interface ReviewView {
  decisions: ReviewDecisionView[];
  comments: ReviewCommentView[];
}

export type ReviewChange = { decision?: ReviewDecision | null; comment?: string };

const isDecision = (value: unknown): value is ReviewDecision =>
  (REVIEW_DECISIONS as readonly unknown[]).includes(value);

/**
 * What a review's body asks, as the server stores it, or why not (a sentence for the field).
 * `decision`: set one, null clears mine, absent leaves it; `comment`: optional text. One at least.
 */
export function checkReviewChange(input: {
  decision?: unknown;
  comment?: unknown;
}): ReviewChange | { field: 'decision' | 'comment'; msg: string } {
  const out: ReviewChange = {};
  if (input.decision !== undefined) {
    if (input.decision !== null && !isDecision(input.decision))
      return { field: 'decision', msg: 'decision is "approved", "changes_requested" or null' };
    out.decision = input.decision;
  }
  if (input.comment !== undefined && input.comment !== null) {
    if (typeof input.comment !== 'string') return { field: 'comment', msg: 'The comment is text' };
    const comment = input.comment.trim();
    if ([...comment].length > REVIEW_COMMENT_MAX)
      return { field: 'comment', msg: `A comment is at most ${REVIEW_COMMENT_MAX} characters` };
    if (comment.includes('\0')) return { field: 'comment', msg: 'A comment cannot hold a NUL character' };
    if (comment) out.comment = comment;
  }
  if (out.decision === undefined && out.comment === undefined)
    return { field: 'comment', msg: 'Write a comment or choose a decision' };
  return out;
}

const count = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;

/** A task view's `review`, read leniently: undefined when absent or not one. */
export function toReviewSummary(value: unknown): ReviewSummary | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { approved, changesRequested, comments, at } = value as Record<string, unknown>;
  if (typeof at !== 'number') return undefined;
  return {
    approved: count(approved),
    changesRequested: count(changesRequested),
    comments: count(comments),
    at,
  };
}
