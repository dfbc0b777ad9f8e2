import { sql, type Kysely } from 'kysely';

/**
 * The client-webhook outbox triggers (0009) plan their insert for each statement's own rows.
 *
 * PL/pgSQL keeps the plan of a static statement without variables for the whole session, made on its first run
 * with the transition tables' sizes of that run. After a 1-row move on a connection, every later move on it joined
 * `new_rows` to `old_rows` with a nested loop planned for one row: quadratic in the rows of the move
 * (docs/decisions.md, "Outbox trigger plans"). PGlite has one connection for the process's life, so its first small
 * move decided for good. `execute` plans the statement at every call with the real
 * sizes (a fraction of a millisecond), so a move costs the same per row whatever ran before on the connection.
 * Same bodies as 0009 otherwise.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
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
      insert into webhook_deliveries (endpoint_id, company_id, event_id, event_type, order_key, data, occurred_at)
      select e.id, c.company_id, c.event_id, 'message.status_changed', c.message_id, c.data, c.occurred_at
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
      insert into webhook_deliveries (endpoint_id, company_id, event_id, event_type, order_key, data, occurred_at)
      select e.id, c.company_id, c.event_id, 'bulk_send.status_changed', c.wizard_id, c.data, c.occurred_at
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
