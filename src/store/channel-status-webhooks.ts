/** SQL for the status-webhook alert: when each channel's last status webhook arrived, and since when it looks stale. */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** A channel's status-webhook mark. */
export interface StatusWebhookMark {
  channel_id: string;
  last_status_at: Date | null;
  stale_since: Date | null;
}

/** Records that a status webhook arrived for these channels now (and clears their stale mark). */
export async function noteStatusWebhooks(db: Db, channelIds: string[]): Promise<void> {
  if (channelIds.length === 0) return;
  await sql`
    insert into channel_status_webhooks (channel_id, last_status_at, stale_since)
    select c.id, now(), null from channels c where c.id = any(${[...new Set(channelIds)].sort()}::text[])
    order by c.id
    on conflict (channel_id) do update set last_status_at = now(), stale_since = null
    where channel_status_webhooks.stale_since is not null or channel_status_webhooks.last_status_at is null
       or channel_status_webhooks.last_status_at < now() - interval '1 second'`.execute(db);
}

/** Every channel's mark. */
export async function listStatusWebhookMarks(db: Db): Promise<StatusWebhookMark[]> {
  const result = await sql<StatusWebhookMark>`select channel_id, last_status_at, stale_since from channel_status_webhooks`.execute(db);
  return result.rows;
}

/** Marks a channel's status webhooks stale since `since`; true when this call set it (it was not marked before). */
export async function markStatusWebhooksStale(db: Db, channelId: string, since: Date): Promise<boolean> {
  const result = await sql`
    insert into channel_status_webhooks (channel_id, last_status_at, stale_since) values (${channelId}, null, ${since})
    on conflict (channel_id) do update set stale_since = excluded.stale_since
    where channel_status_webhooks.stale_since is null`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Clears the stale mark of these channels (no message awaits a status any more). */
export async function clearStatusWebhooksStale(db: Db, channelIds: string[]): Promise<void> {
  if (channelIds.length === 0) return;
  await sql`
    update channel_status_webhooks set stale_since = null
    where channel_id = any(${channelIds}::text[]) and stale_since is not null`.execute(db);
}

/** The company's channels whose status webhooks are stale, with the time since when. */
export async function findStaleStatusWebhooks(db: Db, companyId: string): Promise<Map<string, Date>> {
  const result = await sql<{ channel_id: string; stale_since: Date }>`
    select w.channel_id, w.stale_since from channel_status_webhooks w join channels c on c.id = w.channel_id
    where c.company_id = ${companyId} and w.stale_since is not null`.execute(db);
  return new Map(result.rows.map((r) => [r.channel_id, r.stale_since]));
}
