// When a request's last task reaches a final status, every webhook that wants to hear of it gets one
// delivery queued, in the same transaction that records that status (server/tasks/recorder.ts): the
// creator's own webhooks and the team's. `unique (webhook_id, request_id)` makes it exactly once,
// however many answers or instances record the same ending.
import { sql } from 'kysely';
import type { Db } from '../db/database';

/** Called after a task's final status is written in `trx`. */
export async function queueRequestEnded(trx: Db, taskId: string): Promise<void> {
  await sql`
    with request as (
      select r.id, r.creator_id,
        case when exists (select 1 from tasks f where f.request_id = r.id and f.status = 'FAILED')
          then 'failed' else 'finished' end as event
      from tasks t join requests r on r.id = t.request_id
      where t.id = ${taskId}
        and not exists (
          select 1 from tasks o where o.request_id = r.id and o.status not in ('SUCCEEDED', 'FAILED'))
    )
    insert into webhook_deliveries (webhook_id, request_id, event)
    select w.id, request.id, request.event
    from request join webhooks w
      on (w.scope = 'team' or (w.scope = 'person' and w.user_id = request.creator_id))
    where w.events ? request.event
    on conflict (webhook_id, request_id) do nothing`.execute(trx);
}
