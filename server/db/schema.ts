// The database's tables as Kysely sees them. One schema for PGlite and PostgreSQL: the migrations
// in ./migrations.ts create exactly this.
import type { ColumnType, Generated, JSONColumnType, Selectable } from 'kysely';
import type { RequestFile } from '../../src/api/task-detail/request-files';
import type { Role } from '../../src/api/roles';
import type { CallbackBody } from '../../src/api/schemas';

/** Read as a Date, written as a Date or an ISO string, filled by the database when omitted. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface CallbacksTable {
  /** Event id of the callback stream: assigned in commit order, so SSE resume never skips one. */
  id: Generated<number>;
  /** Idempotency key (task id, status and a hash of the whole body). */
  key: string;
  task_id: string;
  status: string;
  received_at: Timestamp;
  body: JSONColumnType<CallbackBody>;
}

export interface SignedOutSessionsTable {
  id: string;
  /** Epoch milliseconds: the cookie is worthless afterwards, so the row can go. */
  expires_at: number;
}

export type TaskSource = 'created' | 'lookup' | 'callback';
export type TaskEventSource = 'created' | 'poll' | 'lookup' | 'callback';
/** `running` is every status but SUCCEEDED and FAILED: the Tasks screen's "In progress" tab. */
export type TaskPhase = 'running' | 'succeeded' | 'failed';

export interface TaskErrorValue {
  kind: string;
  httpStatus: number;
  code?: number;
  msg: string;
  at: number;
}

/** One task the console has seen: created through it, looked up, or named by a callback. */
export interface TasksTable {
  id: string;
  kind: string;
  source: TaskSource;
  /** The creation request body, when the task was created through this console. */
  params: JSONColumnType<Record<string, unknown> | null, string | null, string | null>;
  /** The other task ids the same creation request returned (this one included). */
  batch: JSONColumnType<string[] | null, string | null, string | null>;
  prompt: string | null;
  name: string | null;
  language: string | null;
  creator: string | null;
  /** The creator's user id; null for a name recorded before identities were verified. */
  creator_id: ColumnType<string | null, string | null | undefined, string | null>;
  status: ColumnType<string, string | undefined, string>;
  phase: ColumnType<TaskPhase, never, never>;
  /** Every field the status answers and callbacks carried, merged. */
  result: JSONColumnType<Record<string, unknown>, string | undefined, string>;
  last_error: JSONColumnType<TaskErrorValue | null, string | null, string | null>;
  last_source: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_checked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  search: ColumnType<string, never, never>;
  /** The request's fields that hold files uploaded through the console, with their names. */
  files: JSONColumnType<RequestFile[] | null, string | null | undefined, string | null>;
  /** The request (one submission) that created the task; null for a task looked up or named by a callback. */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Seconds of video the task made (a succeeded image to video), computed when the row is written (0026). */
  video_seconds_made: ColumnType<string, never, never>;
  /** Seconds of video charged against spending limits, computed when the row is written (0026). */
  video_seconds_charged: ColumnType<string, never, never>;
}

/** One row of the tasks table as read (JSON columns parsed, timestamps as Dates). */
export type TasksTableRow = Selectable<TasksTable>;

/** One submission of a creation form: who, when, what was asked (secrets removed), and the tasks it made. */
export interface RequestsTable {
  /** `req-` and the first task id the creation answer returned. */
  id: string;
  kind: string;
  creator: string | null;
  /** The creator's user id; null for a name recorded before identities were verified. */
  creator_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  /** The request body without callback_url and anything token-like. */
  params: JSONColumnType<Record<string, unknown> | null, string | null, string | null>;
  /** What people call it: the prompt, else the output name, else the uploaded file's name. */
  title: string | null;
  task_ids: JSONColumnType<string[], string, string>;
  /** "More like this": the request this one was made again from (migration 0015). */
  parent_request_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A file uploaded through the console: what its URL was called on the creator's disk. */
export interface UploadsTable {
  url: string;
  file_name: string;
  creator: string | null;
  creator_id: ColumnType<string | null, string | null | undefined, string | null>;
  uploaded_at: Timestamp;
}

/** The timeline of a task: created, each status change with its source, errors. */
export interface TaskEventsTable {
  id: Generated<number>;
  task_id: string;
  at: Timestamp;
  source: TaskEventSource;
  status: string | null;
  error: JSONColumnType<TaskErrorValue | null, string | null, string | null>;
}

/** Tasks per tab, kind and creator ('' for none): the tab counts without a search. */
/** Failed tasks per kind, creator (name, '' for none), code and reason (0026), kept by triggers. */
export interface TaskFailureCountsTable {
  kind: string;
  creator: string;
  /** md5 of the code and reason together: the key (a reason may be too long for an index). */
  failure_key: string;
  code: string | null;
  reason: string;
  n: number;
}

/**
 * Failed tasks per UTC hour, kind, person (as insights_rollup keys them) and failure (0027), kept by
 * the insights triggers: the whole hours of a period's partial days (server/insights/insights.ts).
 */
export interface InsightsFailuresHourlyTable {
  hour: Timestamp;
  kind: string;
  creator_id: string;
  creator_name: string;
  failure_key: string;
  code: string | null;
  reason: string;
  n: number;
}

export interface TaskCountsTable {
  phase: TaskPhase;
  kind: string;
  creator: string;
  n: number;
}

/** Where a person's identity comes from. */
export type UserSource = 'oidc' | 'local' | 'proxy' | 'local-admin' | 'shared-password';

export interface UsersTable {
  id: string;
  source: UserSource;
  /** The identity provider's `sub`, the proxy's header value, the account's email, … */
  subject: string;
  display_name: string;
  email: string | null;
  role: Role;
  /** scrypt, local accounts only. */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  last_sign_in_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  removed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface SessionsTable {
  /** sha256 of the cookie's token. */
  id: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

export interface ApiTokensTable {
  /** A random id, shown in lists and used to revoke; never the token. */
  id: string;
  /** sha256 of the token (base64url); the token itself is shown once and never stored. */
  token_hash: string;
  user_id: string;
  name: string;
  created_at: Timestamp;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface OneTimeLinksTable {
  /** sha256 of the link's token. */
  id: string;
  purpose: 'invite' | 'setup';
  role: Role;
  email: string | null;
  created_by: string | null;
  created_at: Timestamp;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  target: string | null;
  detail: JSONColumnType<Record<string, unknown> | null, string | null, string | null>;
}

/** One limit: the team's (user_id '') or one person's, for a measure over a UTC day or month. */
export interface SpendingLimitsTable {
  scope: 'team' | 'person';
  user_id: Generated<string>;
  measure: 'tasks' | 'images' | 'video_minutes';
  period: 'day' | 'month';
  max_amount: number;
  updated_at: Timestamp;
  updated_by: string | null;
}

/** A creation checked against the limits and not yet recorded (or refused by the service). */
export interface LimitHoldsTable {
  id: string;
  user_id: string;
  tasks: number;
  images: number;
  /** numeric: read back as a string. */
  video_seconds: ColumnType<string, number, number>;
  created_at: Timestamp;
}

export type ResultCopyState = 'queued' | 'copying' | 'kept' | 'failed' | 'expired';

/** One result file of a succeeded task, copied once into the team's storage (server/results). */
export interface ResultCopiesTable {
  id: Generated<number>;
  task_id: string;
  /** image, video, thumbnail or caption. */
  role: string;
  idx: ColumnType<number, number | undefined, number>;
  source_url: string;
  state: ColumnType<ResultCopyState, ResultCopyState | undefined, ResultCopyState>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  /** While `copying`: the worker holding it; past this it is taken again. */
  lease_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  store_key: string | null;
  /** bigint: node-postgres reads it as a string. */
  size: ColumnType<string | null, number | null | undefined, number | null>;
  content_type: string | null;
  sha256: string | null;
  error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  kept_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A task one person hid from their own view of the Tasks screen (migration 0012). */
export interface HiddenTasksTable {
  user_id: string;
  task_id: string;
  hidden_at: Timestamp;
}

/** Why the server stopped asking the service about a task that never reached a final status. */
export type FollowEnd = 'not_found' | 'unavailable';

/** An unfinished task the server asks the service about (migration 0014, server/follow). */
export interface TaskFollowsTable {
  task_id: string;
  /** When it is next asked; null once it is no longer asked (`ended`). A claim moves it a lease ahead. */
  due_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Claims so far: the fence that keeps a worker whose lease was taken over from writing the row. */
  claims: ColumnType<number, number | undefined, number>;
  /** Failed status requests in a row (the backoff reads it). */
  failures: ColumnType<number, number | undefined, number>;
  ended: ColumnType<FollowEnd | null, FollowEnd | null | undefined, FollowEnd | null>;
  ended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** The one row every instance reads before asking: the team's request rate and the service's brake. */
export interface FollowBrakeTable {
  id: number;
  /** No status request before this (a 429 or a Retry-After, for every instance). */
  not_before: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The current one-second window of the team's request rate, and the requests granted in it. */
  window_start: ColumnType<Date, Date | string | undefined, Date | string>;
  window_used: ColumnType<number, number | undefined, number>;
  last_error: JSONColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  last_error_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export type WebhookEvent = 'finished' | 'failed';

/** An outgoing webhook (migration 0020, server/notify): a person's own requests, or every request (team). */
export interface WebhooksTable {
  id: string;
  scope: 'person' | 'team';
  /** The person whose requests it is told of; null for the team's. */
  user_id: string | null;
  name: string;
  url: string;
  /** The HMAC key its messages are signed with (shown to its owner once, when made). */
  secret: string;
  events: JSONColumnType<WebhookEvent[], string | undefined, string>;
  created_at: Timestamp;
  created_by: string | null;
}

/** One message to one webhook about one request, queued when the request ended (server/notify). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: string;
  request_id: string;
  event: WebhookEvent;
  state: ColumnType<
    'queued' | 'sending' | 'delivered' | 'failed',
    'queued' | undefined,
    'queued' | 'sending' | 'delivered' | 'failed'
  >;
  attempts: ColumnType<number, number | undefined, number>;
  /** When it is next sent; while `sending`, when its lease runs out. */
  due_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_status: number | null;
  last_error: string | null;
  created_at: Timestamp;
  delivered_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A task one person starred (migration 0015). */
export interface StarredTasksTable {
  user_id: string;
  task_id: string;
  starred_at: Timestamp;
}

/** One of the team's boards: a named collection of results (migration 0015). */
export interface BoardsTable {
  id: string;
  name: string;
  description: string | null;
  /** The task whose result is the board's cover; none: the first item's. */
  cover_task_id: string | null;
  created_by_id: string | null;
  created_by_name: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A task on a board, in the board's order (`position`, ascending). */
export interface BoardItemsTable {
  board_id: string;
  task_id: string;
  position: number;
  added_by_name: string | null;
  added_at: Timestamp;
}

/** A share link of a board or a request (migration 0021, server/shares). */
export interface SharesTable {
  /** A random id, shown in lists and used to revoke; never the token. */
  id: string;
  /** sha256 of the link's token (base64url); the token itself is shown once and never stored. */
  token_hash: string;
  board_id: string | null;
  request_id: string | null;
  /** What was shared, as named when the link was made (the board's name, the request's title). */
  title: string;
  created_by_id: string | null;
  created_by_name: string | null;
  created_at: Timestamp;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  revoked_by_name: ColumnType<string | null, string | null | undefined, string | null>;
  opened_count: ColumnType<number, number | undefined, number>;
  last_opened_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Wrong share tokens one client sent in the current minute (the guessing brake, server/shares). */
export interface ShareGuessesTable {
  client: string;
  window_start: ColumnType<Date, Date | string, Date | string>;
  misses: number;
}

/** A person's current decision on a result (migration 0022): one per person and task. */
export interface ReviewDecisionsTable {
  task_id: string;
  user_id: string;
  user_name: string;
  decision: 'approved' | 'changes_requested';
  decided_at: Timestamp;
}

/** A comment on a result, with the decision it was sent with (migration 0022). */
export interface ReviewCommentsTable {
  id: string;
  task_id: string;
  user_id: string;
  user_name: string;
  body: string;
  decision: 'approved' | 'changes_requested' | null;
  created_at: Timestamp;
}

/**
 * One failed sign-in: the client's key (address or /64; null once that client signed in, when it
 * still counts for everyone) and when, in epoch milliseconds.
 */
export interface SignInFailuresTable {
  id: Generated<number>;
  client: string | null;
  at: number;
}

/** One callback sender's token bucket: tokens left at `at` (epoch ms); `granted`: what the last ask got. */
export interface CallbackSendersTable {
  sender: string;
  tokens: number;
  at: number;
  granted: number;
}

/** Bytes one person ('' for uploads without a name) uploaded on one UTC day (days since the epoch). */
export interface UploadTalliesTable {
  person: string;
  day: number;
  bytes: number;
}

export interface Schema {
  shares: SharesTable;
  share_guesses: ShareGuessesTable;
  review_decisions: ReviewDecisionsTable;
  review_comments: ReviewCommentsTable;
  sign_in_failures: SignInFailuresTable;
  callback_senders: CallbackSendersTable;
  upload_tallies: UploadTalliesTable;
  starred_tasks: StarredTasksTable;
  boards: BoardsTable;
  board_items: BoardItemsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  hidden_tasks: HiddenTasksTable;
  task_follows: TaskFollowsTable;
  follow_brake: FollowBrakeTable;
  result_copies: ResultCopiesTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  one_time_links: OneTimeLinksTable;
  audit_log: AuditLogTable;
  callbacks: CallbacksTable;
  signed_out_sessions: SignedOutSessionsTable;
  tasks: TasksTable;
  task_events: TaskEventsTable;
  uploads: UploadsTable;
  task_counts: TaskCountsTable;
  task_failure_counts: TaskFailureCountsTable;
  insights_failures_hourly: InsightsFailuresHourlyTable;
  requests: RequestsTable;
  spending_limits: SpendingLimitsTable;
  limit_holds: LimitHoldsTable;
}
