import { sql, type Kysely } from 'kysely';

/**
 * Client webhooks: a company's endpoints and the durable outbox of deliveries.
 *
 * The outbox is written by triggers in the SAME transaction as the change: statement-level AFTER triggers with
 * transition tables on `messages` (UPDATE) and `send_wizards` (INSERT, UPDATE) insert one delivery per changed
 * status and per enabled endpoint of the row's company that subscribes to the event type. Set-based, so a
 * 5,000-row move costs one statement; when no endpoint is enabled anywhere the function returns after one
 * index probe. No foreign key from deliveries to endpoints on purpose: a delete of an endpoint racing a move
 * must never fail the move (its stray deliveries are purged by the worker's retention).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_endpoints (
      id text primary key,
      company_id text not null references companies(id),
      url text not null,
      description text not null default '',
      events text[] not null,
      secret text not null,
      enabled boolean not null default true,
      disabled_reason text,
      disabled_at timestamptz,
      consecutive_failures integer not null default 0,
      failing_since timestamptz,
      last_success_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_endpoints_company on webhook_endpoints (company_id, created_at, id)`.execute(db);
  await sql`create index webhook_endpoints_enabled on webhook_endpoints (company_id) where enabled`.execute(db);
  await sql`
    create table webhook_deliveries (
      id bigserial primary key,
      endpoint_id text not null,
      company_id text not null,
      event_id text not null,
      event_type text not null,
      order_key text not null,
      data jsonb not null,
      occurred_at timestamptz not null,
      state text not null default 'PENDING',
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      lease_owner text,
      lease_until timestamptz,
      last_attempt_at timestamptz,
      last_status_code integer,
      last_error text,
      delivered_at timestamptz,
      replay_of bigint,
      created_at timestamptz not null default now()
    )`.execute(db);
  // The worker's claim: due PENDING rows; the head-of-line check per (endpoint, subject).
  await sql`create index webhook_deliveries_due on webhook_deliveries (endpoint_id, next_attempt_at, id) where state = 'PENDING'`.execute(db);
  await sql`create index webhook_deliveries_order on webhook_deliveries (endpoint_id, order_key, id) where state = 'PENDING'`.execute(db);
  // The company's delivery log (newest first) and retention.
  await sql`create index webhook_deliveries_log on webhook_deliveries (endpoint_id, id desc)`.execute(db);
  await sql`create index webhook_deliveries_done on webhook_deliveries (created_at) where state <> 'PENDING'`.execute(db);
  // The sweep that gives up rows nobody can deliver (endpoint disabled or deleted) after the retry window.
  await sql`create index webhook_deliveries_pending_age on webhook_deliveries (created_at) where state = 'PENDING'`.execute(db);

  await sql`
    create function tms_outbox_message_changes() returns trigger language plpgsql as $fn$
    begin
      if not exists (select 1 from webhook_endpoints where enabled) then return null; end if;
      -- Materialized: one event id per change, shared by every endpoint it goes to.
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
      order by c.message_id, e.id;
      return null;
    end
    $fn$`.execute(db);
  await sql`
    create trigger messages_outbox after update on messages
    referencing old table as old_rows new table as new_rows
    for each statement execute function tms_outbox_message_changes()`.execute(db);

  const wizardData = (previous: string) => `jsonb_build_object(
            'send_wizard_id', n.id, 'channel_id', n.channel_id, 'template_id', n.template_id,
            'template_name', n.template_name, 'status', n.status, 'previous_status', ${previous},
            'paused_reason', n.paused_reason,
            'counters', jsonb_build_object('summary', n.summary, 'waiting', n.waiting, 'queued', n.queued,
              'processed_count', n.processed_count, 'awaiting_backend_count', n.awaiting_backend_count,
              'failed_count', n.failed_count, 'delivered_count', n.delivered_count, 'sent_count', n.sent_count,
              'seen_count', n.seen_count, 'cancelled_count', n.cancelled_count, 'duplicate_count', n.duplicate_count))`;
  const wizardInsert = (previous: string, from: string, where: string) => sql.raw(`
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
      order by c.wizard_id, e.id;`);
  await sql`
    create function tms_outbox_wizard_changes() returns trigger language plpgsql as $fn$
    begin
      if not exists (select 1 from webhook_endpoints where enabled) then return null; end if;
      ${wizardInsert('o.status', 'new_rows n join old_rows o on o.id = n.id', 'n.status is distinct from o.status')}
      return null;
    end
    $fn$`.execute(db);
  await sql`
    create trigger send_wizards_outbox after update on send_wizards
    referencing old table as old_rows new table as new_rows
    for each statement execute function tms_outbox_wizard_changes()`.execute(db);
  // A new bulk send is stored PENDING (not shown by the API): its first event is PENDING → RUNNING (or another
  // status a start may store directly, e.g. a scheduled one).
  await sql`
    create function tms_outbox_wizard_inserts() returns trigger language plpgsql as $fn$
    begin
      if not exists (select 1 from webhook_endpoints where enabled) then return null; end if;
      ${wizardInsert('null', 'new_rows n', "n.status <> 'PENDING'")}
      return null;
    end
    $fn$`.execute(db);
  await sql`
    create trigger send_wizards_outbox_insert after insert on send_wizards
    referencing new table as new_rows
    for each statement execute function tms_outbox_wizard_inserts()`.execute(db);
}
