/** SQL for client webhook endpoints (migration 0009). Every company read takes the company id. */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, WebhookEndpointsTable } from './schema.js';
import { DELIVERY } from '../domain/client-webhooks.js';

type Db = Kysely<Database>;

/** An endpoint row (the secret sealed). */
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

/** Inserts an endpoint. */
export async function insertWebhookEndpoint(
  db: Db,
  row: { id: string; company_id: string; url: string; description: string; events: string[]; secret: string },
): Promise<WebhookEndpointRow> {
  const result = await sql<WebhookEndpointRow>`
    insert into webhook_endpoints (id, company_id, url, description, events, secret)
    values (${row.id}, ${row.company_id}, ${row.url}, ${row.description}, ${row.events}::text[], ${row.secret})
    returning *`.execute(db);
  return result.rows[0]!;
}

/** How many endpoints the company has. */
export async function countWebhookEndpoints(db: Db, companyId: string): Promise<number> {
  const result = await sql<{ n: number }>`select count(*)::int as n from webhook_endpoints where company_id = ${companyId}`.execute(db);
  return result.rows[0]?.n ?? 0;
}

/** The company's endpoints, oldest first. */
export async function listWebhookEndpoints(db: Db, companyId: string): Promise<WebhookEndpointRow[]> {
  const result = await sql<WebhookEndpointRow>`
    select * from webhook_endpoints where company_id = ${companyId} order by created_at, id`.execute(db);
  return result.rows;
}

/** One of the company's endpoints (another company's id is simply not found). */
export async function findWebhookEndpoint(db: Db, companyId: string, id: string): Promise<WebhookEndpointRow | undefined> {
  const result = await sql<WebhookEndpointRow>`
    select * from webhook_endpoints where id = ${id} and company_id = ${companyId}`.execute(db);
  return result.rows[0];
}

/** The changes a company may make to its endpoint (absent fields stay). */
export interface EndpointChange {
  url?: string;
  description?: string;
  events?: string[];
  enabled?: boolean;
  /** A new sealed secret. */
  secret?: string;
}

/**
 * Changes one of the company's endpoints; enabling clears the disable mark and the failure streak, disabling
 * by the company records `disabled_reason` = 'disabled by the company'.
 */
export async function updateWebhookEndpoint(db: Db, companyId: string, id: string, change: EndpointChange): Promise<WebhookEndpointRow | undefined> {
  const enabled = change.enabled ?? null;
  const result = await sql<WebhookEndpointRow>`
    update webhook_endpoints set
      url = coalesce(${change.url ?? null}, url),
      description = coalesce(${change.description ?? null}, description),
      events = coalesce(${change.events ?? null}::text[], events),
      secret = coalesce(${change.secret ?? null}, secret),
      enabled = coalesce(${enabled}::boolean, enabled),
      disabled_reason = case when ${enabled}::boolean is true then null
                             when ${enabled}::boolean is false and enabled then 'disabled by the company'
                             else disabled_reason end,
      disabled_at = case when ${enabled}::boolean is true then null
                         when ${enabled}::boolean is false and enabled then now() else disabled_at end,
      consecutive_failures = case when ${enabled}::boolean is true then 0 else consecutive_failures end,
      failing_since = case when ${enabled}::boolean is true then null else failing_since end,
      updated_at = now()
    where id = ${id} and company_id = ${companyId}
    returning *`.execute(db);
  return result.rows[0];
}

/** Deletes one of the company's endpoints; false when there was none. */
export async function deleteWebhookEndpoint(db: Db, companyId: string, id: string): Promise<boolean> {
  const result = await sql`delete from webhook_endpoints where id = ${id} and company_id = ${companyId}`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Every enabled endpoint (the delivery worker's list: id, url and sealed secret). */
export async function listEnabledWebhookEndpoints(db: Db): Promise<Array<Pick<WebhookEndpointRow, 'id' | 'company_id' | 'url' | 'secret'>>> {
  const result = await sql<Pick<WebhookEndpointRow, 'id' | 'company_id' | 'url' | 'secret'>>`
    select id, company_id, url, secret from webhook_endpoints where enabled order by id`.execute(db);
  return result.rows;
}

/** A delivery attempt succeeded: the failure streak ends. */
export async function noteEndpointSuccess(db: Db, id: string): Promise<void> {
  await sql`
    update webhook_endpoints set consecutive_failures = 0, failing_since = null, last_success_at = now()
    where id = ${id} and (consecutive_failures <> 0 or last_success_at is null or last_success_at < now() - interval '1 second')`.execute(db);
}

/**
 * A delivery attempt failed: the streak grows; when it reached `maxFailures` attempts AND every attempt for
 * `failingSeconds` failed, the endpoint is disabled (returns true when this call disabled it).
 */
export async function noteEndpointFailure(db: Db, id: string, maxFailures: number, failingSeconds: number): Promise<boolean> {
  const result = await sql<{ enabled: boolean }>`
    update webhook_endpoints set
      consecutive_failures = consecutive_failures + 1,
      failing_since = coalesce(failing_since, now()),
      enabled = not (consecutive_failures + 1 >= ${maxFailures}
                     and coalesce(failing_since, now()) <= now() - make_interval(secs => ${failingSeconds})),
      disabled_reason = case when consecutive_failures + 1 >= ${maxFailures}
                               and coalesce(failing_since, now()) <= now() - make_interval(secs => ${failingSeconds})
                             then 'every delivery attempt failed: ' || (consecutive_failures + 1) || ' in a row since '
                                  || to_char(coalesce(failing_since, now()) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                             else disabled_reason end,
      disabled_at = case when consecutive_failures + 1 >= ${maxFailures}
                           and coalesce(failing_since, now()) <= now() - make_interval(secs => ${failingSeconds})
                         then now() else disabled_at end,
      updated_at = now()
    where id = ${id} and enabled
    returning enabled`.execute(db);
  return result.rows[0]?.enabled === false;
}

/**
 * Disables enabled endpoints with more than `maxPending` PENDING deliveries (counted up to `maxPending` + 1 through the
 * endpoint's pending index): their backlog stops growing; it is kept, delivered when the company enables the
 * endpoint again, or given up after the retry window. Returns the endpoints it disabled.
 */
export async function disableEndpointsOverBacklog(db: Db, maxPending: number): Promise<Array<{ id: string; company_id: string }>> {
  const result = await sql<{ id: string; company_id: string }>`
    update webhook_endpoints e set enabled = false, disabled_at = now(), updated_at = now(),
      disabled_reason = ${`backlog limit: more than ${maxPending} deliveries pending`}
    where e.enabled
      and (select count(*) from (select 1 from webhook_deliveries d where d.endpoint_id = e.id and d.state = ${sql.lit(DELIVERY.PENDING)}
                                 limit ${maxPending + 1}) x) > ${maxPending}
    returning e.id, e.company_id`.execute(db);
  return result.rows;
}

/** An endpoint `e` that is enabled and takes message status changes (by name or `*`). */
const takesMessageStatusChanges = sql`e.enabled and e.events && array['message.status_changed', '*']`;

/**
 * Whether any of these companies has an enabled endpoint that takes message status changes (what the outbox trigger
 * of migration 0009 checks): then a status batch moves each message one status per statement, so every state is a
 * change of its own.
 */
export async function hasMessageStatusSubscribers(db: Db, companyIds: string[]): Promise<boolean> {
  if (companyIds.length === 0) return false;
  const result = await sql<{ found: boolean }>`
    select exists (select 1 from webhook_endpoints e where e.company_id = any(${companyIds}::text[])
                   and ${takesMessageStatusChanges}) as found`.execute(db);
  return result.rows[0]?.found === true;
}

/** Whether the company of this channel has an enabled endpoint taking message status changes. */
export async function channelHasMessageStatusSubscribers(db: Db, channelId: string): Promise<boolean> {
  const result = await sql<{ found: boolean }>`
    select exists (select 1 from webhook_endpoints e join channels c on c.company_id = e.company_id
                   where c.id = ${channelId} and ${takesMessageStatusChanges}) as found`.execute(db);
  return result.rows[0]?.found === true;
}
