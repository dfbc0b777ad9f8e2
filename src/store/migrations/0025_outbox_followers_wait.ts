import { sql, type Kysely } from 'kysely';

/**
 * A new delivery is due no earlier than its subject's PENDING deliveries (0009 made every new one due at once). With
 * an endpoint down, its failing heads wait for their retry while new events of the same subjects kept arriving due
 * now; the claim, which takes only the head of each subject, then read every one of them to find the heads, so its
 * cost grew with the backlog (431k pending: minutes a claim). Now a follower carries its head's next attempt time
 * (a failed attempt moves the followers along, a delivered or given-up head pulls the next one to now, as before),
 * so due rows are heads and the few followers of heads in flight. The bodies are 0018's otherwise (`execute`).
 * Existing followers get their head's time. An index of each endpoint's PENDING deliveries reads its backlog.
 */
/** A new delivery's first attempt: now, or its subject's latest PENDING next attempt when later. */
const dueAfterSubject = (subject: string) => `greatest(now(), (select max(p.next_attempt_at) from webhook_deliveries p
          where p.endpoint_id = e.id and p.order_key = ${subject} and p.state = 'PENDING'))`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // An endpoint's backlog (its count and oldest, for the API, the metrics and the backlog limit) by index.
  await sql`create index webhook_deliveries_pending_endpoint on webhook_deliveries (endpoint_id, id) where state = 'PENDING'`.execute(db);
  await sql`
    update webhook_deliveries d set next_attempt_at = h.head_at
    from (select id, max(next_attempt_at) over (partition by endpoint_id, order_key order by id) as head_at
          from webhook_deliveries where state = 'PENDING') h
    where d.id = h.id and d.state = 'PENDING' and d.next_attempt_at < h.head_at`.execute(db);
  await sql`
    create or replace function tms_outbox_message_changes() returns trigger language plpgsql as $fn$
    begin
      if not exists (select 1 from webhook_endpoints where enabled) then return null; end if;
      execute $q$
      with c as materialized (
        select gen_random_uuid()::text as event_id, n.company_id, n.id as message_id, clock_timestamp() as occurred_at,
          jsonb_build_object(
            'message_id', n.id, 'send_wizard_id', n.send_wizard_id, 'row_no', n.row_no, 'channel_id', n.channel_id,
            'phone_number', n.phone_number, 'status', n.status, 'previous_status', o.status, 'ext_id', n.ext_id,
            'error_message', n.error_message, 'error_message_detail', n.error_message_detail) as data
        from new_rows n join old_rows o on o.id = n.id
        where n.status is distinct from o.status
          and n.company_id in (select company_id from webhook_endpoints
                               where enabled and events && array['message.status_changed', '*']))
      insert into webhook_deliveries (endpoint_id, company_id, event_id, event_type, order_key, data, occurred_at, next_attempt_at)
      select e.id, c.company_id, c.event_id, 'message.status_changed', c.message_id, c.data, c.occurred_at,
        ${sql.raw(dueAfterSubject('c.message_id'))}
      from c join webhook_endpoints e on e.company_id = c.company_id and e.enabled
                              and e.events && array['message.status_changed', '*']
      order by c.message_id, e.id $q$;
      return null;
    end
    $fn$`.execute(db);

  const wizardData = (previous: string) => `jsonb_build_object(
            'send_wizard_id', n.id, 'channel_id', n.channel_id, 'template_id', n.template_id,
            'template_name', n.template_name, 'status', n.status, 'previous_status', ${previous},
            'paused_reason', n.paused_reason,
            'counters', jsonb_build_object('summary', n.summary, 'waiting', n.waiting, 'queued', n.queued,
              'processed_count', n.processed_count, 'awaiting_backend_count', n.awaiting_backend_count,
              'failed_count', n.failed_count, 'delivered_count', n.delivered_count, 'sent_count', n.sent_count,
              'seen_count', n.seen_count, 'cancelled_count', n.cancelled_count, 'duplicate_count', n.duplicate_count))`;
  const wizardInsert = (previous: string, from: string, where: string) => sql.raw(`
      execute $q$
      with c as materialized (
        select gen_random_uuid()::text as event_id, n.company_id, n.id as wizard_id, clock_timestamp() as occurred_at,
          ${wizardData(previous)} as data
        from ${from}
        where ${where}
          and n.company_id in (select company_id from webhook_endpoints
                               where enabled and events && array['bulk_send.status_changed', '*']))
      insert into webhook_deliveries (endpoint_id, company_id, event_id, event_type, order_key, data, occurred_at, next_attempt_at)
      select e.id, c.company_id, c.event_id, 'bulk_send.status_changed', c.wizard_id, c.data, c.occurred_at,
        ${dueAfterSubject('c.wizard_id')}
      from c join webhook_endpoints e on e.company_id = c.company_id and e.enabled
                              and e.events && array['bulk_send.status_changed', '*']
      order by c.wizard_id, e.id $q$;`);
  await sql`
    create or replace function tms_outbox_wizard_changes() returns trigger language plpgsql as $fn$
    begin
      if not exists (select 1 from webhook_endpoints where enabled) then return null; end if;
      ${wizardInsert('o.status', 'new_rows n join old_rows o on o.id = n.id', 'n.status is distinct from o.status')}
      return null;
    end
    $fn$`.execute(db);
  await sql`
    create or replace function tms_outbox_wizard_inserts() returns trigger language plpgsql as $fn$
    begin
      if not exists (select 1 from webhook_endpoints where enabled) then return null; end if;
      ${wizardInsert('null', 'new_rows n', "n.status <> 'PENDING'")}
      return null;
    end
    $fn$`.execute(db);
}
