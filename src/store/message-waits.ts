/**
 * SQL of the bounded waits (domain/waits.ts): the channels with messages waiting too long for a status event or on
 * a blocked queue, and the move that ends those waits.
 */
import { sql, type Kysely } from 'kysely';
import { AWAITING_EVENT_STATUS, MESSAGE_MOVES, QUEUED_STATUS, type MessageMove } from '../domain/message-moves.js';
import { state, states, type MovedRow } from './message-moves.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** Per channel with messages awaiting their first status event: the oldest hand-off time (one index probe each). */
export async function listOldestAwaitingStatus(db: Db): Promise<Array<{ channel_id: string; oldest: Date }>> {
  const result = await sql<{ channel_id: string; oldest: Date | null }>`
    select c.id as channel_id,
      (select m.backend_sended_time from messages m where m.channel_id = c.id and m.status = ${state(AWAITING_EVENT_STATUS)}
       order by m.backend_sended_time limit 1) as oldest
    from channels c`.execute(db);
  return result.rows.filter((r): r is { channel_id: string; oldest: Date } => r.oldest !== null);
}

/**
 * The bounded waits (domain/waits.ts): a handed-off message that no status event reached (SENT_TO_BACKEND, timed
 * from `backend_sended_time`), or a message QUEUED on a blocked channel (timed from `due_at`). Both end
 * SENT_TO_BACKEND_FAILED; a late status event still raises the first kind.
 */
const OVERDUE = {
  statusless: { move: MESSAGE_MOVES.statuslessTimeout, since: 'backend_sended_time' },
  queued: { move: MESSAGE_MOVES.queueTimeout, since: 'due_at' },
} as const satisfies Record<string, { move: MessageMove; since: 'backend_sended_time' | 'due_at' }>;

/**
 * Ends a channel's messages that waited longer than `waitSeconds` in one of the bounded waits
 * (→ SENT_TO_BACKEND_FAILED with `error`, oldest first, at most `limit`).
 */
export async function failOverdueMessages(
  db: Db,
  channelId: string,
  wait: keyof typeof OVERDUE,
  waitSeconds: number,
  limit: number,
  error: { message: string; detail: string },
): Promise<MovedRow[]> {
  const { move, since } = OVERDUE[wait];
  const sinceColumn = sql.ref(since);
  const result = await sql<MovedRow>`
    with t as (select id, status as old_status, reached_rank as old_rank from messages
               where channel_id = ${channelId} and status in (${states(move.from)})
                 and ${sinceColumn} < now() - make_interval(secs => ${waitSeconds})
               order by ${sinceColumn} limit ${limit} for update skip locked)
    update messages m set status = ${state(move.to)}, error_message = ${error.message},
      error_message_detail = ${error.detail}, failed_time = coalesce(m.failed_time, now()), updated_at = now(),
      version = m.version + 1
    from t where m.id = t.id and m.status in (${states(move.from)})
    returning m.id, m.send_wizard_id, t.old_status, t.old_rank, m.status, m.reached_rank`.execute(db);
  return result.rows;
}

/** Channels with QUEUED messages due more than `olderThanSeconds` ago (one index probe per channel). */
export async function listChannelsWithOverdueQueue(db: Db, olderThanSeconds: number): Promise<string[]> {
  const result = await sql<{ id: string }>`
    select c.id from channels c
    where exists (select 1 from messages m where m.channel_id = c.id and m.status = ${state(QUEUED_STATUS)}
                  and m.due_at < now() - make_interval(secs => ${olderThanSeconds}))`.execute(db);
  return result.rows.map((r) => r.id);
}
