import { sql, type Kysely } from 'kysely';

/**
 * Messages (single sends and bulk-send rows; also the work queue), bulk sends with their counters,
 * status events waiting for their message, per-channel send leases, recipients of the tier window and
 * the suppression list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table send_wizards (
      id text primary key,
      company_id text not null references companies(id),
      channel_id text not null references channels(id),
      template_id text not null,
      template_name text not null,
      from_number text not null,
      has_button boolean not null,
      status text not null,
      total_time integer not null,
      summary integer not null default 0,
      waiting integer not null default 0,
      queued integer not null default 0,
      processed_count integer not null default 0,
      awaiting_backend_count integer not null default 0,
      failed_count integer not null default 0,
      delivered_count integer not null default 0,
      sent_count integer not null default 0,
      seen_count integer not null default 0,
      cancelled_count integer not null default 0,
      duplicate_count integer not null default 0,
      paused_reason text,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index send_wizards_company on send_wizards (company_id, created_at desc, id desc)`.execute(db);
  await sql`create index send_wizards_active on send_wizards (status) where status in ('RUNNING', 'PAUSED')`.execute(db);
  await sql`
    create table messages (
      id text primary key,
      company_id text not null references companies(id),
      channel_id text not null references channels(id),
      template_id text not null,
      waba_id text not null,
      send_wizard_id text references send_wizards(id),
      row_no integer,
      row_ref bigint,
      phone_number text not null,
      full_name text,
      status text not null,
      reached_rank smallint not null default 0,
      payload jsonb not null,
      due_at timestamptz not null default now(),
      lease_owner text,
      lease_until timestamptz,
      attempts integer not null default 0,
      send_attempted_at timestamptz,
      ext_id text,
      backend_sended_time timestamptz,
      sended_time timestamptz,
      delivered_time timestamptz,
      seen_time timestamptz,
      failed_time timestamptz,
      error_message text,
      error_message_detail text,
      webhook_response jsonb,
      version integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index messages_wizard_row on messages (send_wizard_id, row_no) where send_wizard_id is not null`.execute(db);
  await sql`create index messages_wizard_waiting on messages (send_wizard_id, row_no) where status = 'NONE'`.execute(db);
  await sql`create unique index messages_ext_id on messages (ext_id) where ext_id is not null`.execute(db);
  await sql`create index messages_due on messages (channel_id, due_at) where status = 'QUEUED'`.execute(db);
  await sql`create index messages_in_flight on messages (lease_until) where status in ('AGENDA', 'OPT_IN_SUCCESS')`.execute(db);
  await sql`create index messages_company on messages (company_id, id)`.execute(db);
  await sql`
    create table pending_status_events (
      id bigserial primary key,
      wamid text not null,
      callback_data text,
      status text not null,
      body jsonb not null,
      received_at timestamptz not null default now(),
      attempts integer not null default 0
    )`.execute(db);
  await sql`create index pending_status_events_wamid on pending_status_events (wamid)`.execute(db);
  await sql`
    create table channel_leases (
      channel_id text primary key references channels(id),
      owner text not null,
      lease_until timestamptz not null
    )`.execute(db);
  await sql`
    create table tier_recipients (
      channel_id text not null references channels(id),
      phone_number text not null,
      first_sent_at timestamptz not null,
      primary key (channel_id, phone_number)
    )`.execute(db);
  await sql`create index tier_recipients_window on tier_recipients (channel_id, first_sent_at)`.execute(db);
  await sql`
    create table suppressed_numbers (
      company_id text not null references companies(id),
      phone_number text not null,
      reason text not null,
      created_at timestamptz not null default now(),
      primary key (company_id, phone_number)
    )`.execute(db);
}
