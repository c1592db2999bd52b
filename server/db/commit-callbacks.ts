// commit_callbacks(arrived, move_tasks, task_notices): one group of callbacks stored and its tasks
// moved on, as ONE statement sent in autocommit, so a group costs one round trip (it was four:
// BEGIN with the lock, the insert, the tasks, COMMIT; each socket write to PostgreSQL cost ~0.8 ms
// on a busy 2-core machine). Created by migration 0006 (./migrations.ts) and frozen there: a change
// to this text reaches no database that has already run it, so it needs a migration of its own.
//
// Why a function: each statement is planned once per connection and the work stays in the server,
// where four round trips each woke PostgreSQL and then Node again on a CPU they share.
// - arrived: jsonb array of {ord, key, task_id, status, body}, in arrival order.
// - move_tasks: whether the stored callbacks move their tasks on (the console's store does; a
//   store on its own, as in the inbox tests, keeps the log only).
// - task_notices: TASKS_CHANNEL payloads for every task of the group (server/tasks/announce.ts
//   cuts them to NOTIFY's size); each is sent with only the tasks this group moved, which keeps it
//   short enough and names no task whose callbacks were all duplicates.
// Returns the stored rows (fresh) and, for the group's keys already stored earlier, those rows.
//
// Frozen, so it imports nothing: the lock and the channels are written out as they were when the
// migration first ran (CALLBACK_ID_LOCK and CALLBACKS_CHANNEL in server/callbacks/store.ts,
// TASKS_CHANNEL in server/tasks/recorder.ts; a test holds them equal).

export const COMMIT_CALLBACKS_FUNCTION = `
create function commit_callbacks(arrived jsonb, move_tasks boolean, task_notices text[])
returns table (id bigint, key text, received_at timestamptz, body jsonb, fresh boolean)
language plpgsql as $fn$
#variable_conflict use_column
declare
  added_ids bigint[];
  moved text[];
begin
  -- Ids grow in commit order (SSE resume relies on it): the lock is taken before the statement
  -- below takes its snapshot, and held until this transaction commits.
  perform pg_advisory_xact_lock(7310001);

  with incoming as (
    select * from jsonb_to_recordset(arrived)
      as t(ord int, key text, task_id text, status text, body jsonb)
  ), fresh as (
    -- No id is spent on a key already stored; of identical deliveries in the group, the first.
    -- Each key is looked up by a subquery of its own: PL/pgSQL keeps a plan for the session, made
    -- when the table may have been nearly empty, and a join planned then went on scanning the
    -- whole table once it had grown (2.4 ms a group at 6,400 rows). A lookup stays one at any size.
    select distinct on (key) * from incoming i
    where (select c.id from callbacks c where c.key = i.key) is null
    order by key, ord
  ), added as (
    insert into callbacks (key, task_id, status, body)
    select key, task_id, status, body from fresh order by ord
    returning id, task_id, status, body
  ),

  -- The tasks, by applyStatus's rule (server/tasks/recorder.ts) over the stored callbacks in id
  -- order: fields merge into result (a top-level null never erases one), the last callback names
  -- the kind and the status, the last non-empty name and the first non-empty language win.
  -- Callbacks carry terminal statuses only, so the browser's rule never has to keep an older one.
  steps as (
    select a.id, a.task_id, a.status, a.body->>'task_type' as kind, a.body->'data' as data,
      lag(a.status) over (partition by a.task_id order by a.id) as previous
    from added a
    where move_tasks
  ), texts as (
    select s.*,
      case when jsonb_typeof(data->'name') = 'string' then nullif(data->>'name', '') end as name,
      case when jsonb_typeof(data->'language') = 'string' then nullif(data->>'language', '') end as language
    from steps s
  ), merged as (
    select s.task_id as id,
      (array_agg(s.kind order by s.id desc))[1] as kind,
      (array_agg(s.status order by s.id desc))[1] as status,
      (array_agg(s.name order by s.id desc) filter (where s.name is not null))[1] as name,
      (array_agg(s.language order by s.id) filter (where s.language is not null))[1] as language
    from texts s group by s.task_id
  ), results as (
    -- jsonb keeps the last value of a repeated key: fed in id order, the later callback wins.
    select s.task_id as id, jsonb_object_agg(f.key, f.value order by s.id) as result
    from steps s cross join lateral jsonb_each(s.data) f
    where jsonb_typeof(f.value) <> 'null'
    group by s.task_id
  ), old as materialized (
    -- The state before this statement: a task's first callback here makes a timeline event when
    -- the task is new or its status changes; each later one when it changes the status again.
    -- (Materialized: inlined into the join below, it looked every task up once per callback.)
    select m.id, (select t.status from tasks t where t.id = m.id) as status from merged m
  ), up as (
    -- Rows written in id order, as every writer of several tasks does, so two groups cannot deadlock.
    insert into tasks as k (id, kind, source, status, result, name, language, last_source,
      last_checked_at, updated_at, finished_at)
    select m.id, m.kind, 'callback', m.status, coalesce(r.result, '{}'), m.name, m.language,
      'callback', now(), now(), now()
    from merged m left join results r on r.id = m.id
    order by m.id
    on conflict (id) do update set
      kind = excluded.kind,
      status = excluded.status,
      result = k.result || excluded.result,
      name = coalesce(excluded.name, k.name),
      language = coalesce(k.language, excluded.language),
      last_error = null,
      last_source = 'callback',
      last_checked_at = now(),
      updated_at = now(),
      finished_at = case when k.status in ('SUCCEEDED', 'FAILED') then k.finished_at else now() end
  ), events as (
    insert into task_events (task_id, source, status)
    select s.task_id, 'callback', s.status
    from steps s left join old o on o.id = s.task_id
    where coalesce(s.previous, o.status) is distinct from s.status
    order by s.id
  )
  select (select array_agg(id) from added), (select array_agg(id) from merged)
  into added_ids, moved;

  -- Delivered at commit, to every instance (this one included).
  if added_ids is not null then
    perform pg_notify('console_callbacks', (select max(i) from unnest(added_ids) i)::text);
  end if;
  perform pg_notify('console_tasks', payload) from (
    select (select array_to_json(array_agg(n.id order by n.ord))::text
            from jsonb_array_elements_text(notice::jsonb) with ordinality n(id, ord)
            where n.id = any(moved)) as payload
    from unnest(task_notices) notice
  ) payloads where payload is not null;

  -- Looked up one by one (offset 0 keeps the subquery one), as above.
  return query
  select c.id, c.key, c.received_at, c.body, c.id = any(coalesce(added_ids, '{}'))
  from (select distinct key from jsonb_to_recordset(arrived) as t(key text)) t
  cross join lateral (select * from callbacks c where c.key = t.key offset 0) c;
end
$fn$`;
