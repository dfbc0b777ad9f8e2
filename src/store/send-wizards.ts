/** SQL for bulk sends (send wizards) and their counters, which moves keep exact in the same transaction. */
import { sql, type Kysely } from 'kysely';
import { COUNTERS, type Counter } from '../domain/message-states.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** A bulk send row. */
export interface SendWizardRow {
  id: string;
  company_id: string;
  channel_id: string;
  template_id: string;
  template_name: string;
  from_number: string;
  has_button: boolean;
  status: string;
  total_time: number;
  summary: number;
  waiting: number;
  queued: number;
  processed_count: number;
  awaiting_backend_count: number;
  failed_count: number;
  delivered_count: number;
  sent_count: number;
  seen_count: number;
  cancelled_count: number;
  duplicate_count: number;
  paused_reason: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Adds counter deltas to a bulk send (one statement), then completes it when no row is left unsettled. */
export async function addWizardCounters(db: Db, wizardId: string, delta: Partial<Record<Counter, number>>): Promise<void> {
  const sets = COUNTERS.filter((c) => delta[c]).map((c) => sql`${sql.ref(c)} = ${sql.ref(c)} + ${delta[c]!}`);
  if (sets.length === 0) return;
  await sql`
    update send_wizards set ${sql.join(sets)},
      status = case when status in ('RUNNING', 'PAUSED')
                      and waiting + ${delta.waiting ?? 0} = 0 and queued + ${delta.queued ?? 0} = 0
                      and awaiting_backend_count + ${delta.awaiting_backend_count ?? 0} = 0
                    then 'COMPLETED' else status end,
      finished_at = case when status in ('RUNNING', 'PAUSED')
                      and waiting + ${delta.waiting ?? 0} = 0 and queued + ${delta.queued ?? 0} = 0
                      and awaiting_backend_count + ${delta.awaiting_backend_count ?? 0} = 0
                    then now() else finished_at end,
      updated_at = now()
    where id = ${wizardId}`.execute(db);
}

/** Holds a channel's running bulk sends (channel FLAGGED/RED or not CONNECTED). */
export async function pauseChannelWizards(db: Db, channelId: string, reason: string): Promise<number> {
  const result = await sql`
    update send_wizards set status = 'PAUSED', paused_reason = ${reason}, updated_at = now()
    where channel_id = ${channelId} and status = 'RUNNING'`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Holds these bulk sends (tier quota spent). */
export async function pauseWizards(db: Db, ids: string[], reason: string): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    update send_wizards set status = 'PAUSED', paused_reason = ${reason}, updated_at = now()
    where id = any(${ids}::text[]) and status = 'RUNNING'`.execute(db);
}

/** Lets held bulk sends run again (their rows are being sent). */
export async function resumeWizards(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    update send_wizards set status = 'RUNNING', paused_reason = null, updated_at = now()
    where id = any(${ids}::text[]) and status = 'PAUSED'`.execute(db);
}
