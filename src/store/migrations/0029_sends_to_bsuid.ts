import { sql, type Kysely } from 'kysely';

/**
 * Sends to a customer known only by a BSUID (domain/recipients.ts): `messages.phone_number` may be null (the record
 * shows it null until the network gives one), and the `message.status_changed` event of the client webhooks carries
 * the recipient's `user_id`, `parent_user_id` and `username` (0026's columns) beside `phone_number`. The trigger's
 * body is 0025's otherwise (`execute`, a new delivery due no earlier than its subject's pending ones).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table messages alter column phone_number drop not null`.execute(db);
  await sql`
    create or replace function tms_outbox_message_changes() returns trigger language plpgsql as $fn$
    begin
      if not exists (select 1 from webhook_endpoints where enabled) then return null; end if;
      execute $q$
      with c as materialized (
        select gen_random_uuid()::text as event_id, n.company_id, n.id as message_id, clock_timestamp() as occurred_at,
          jsonb_build_object(
            'message_id', n.id, 'send_wizard_id', n.send_wizard_id, 'row_no', n.row_no, 'channel_id', n.channel_id,
            'phone_number', n.phone_number, 'user_id', n.user_id, 'parent_user_id', n.parent_user_id, 'username', n.username,
            'status', n.status, 'previous_status', o.status, 'ext_id', n.ext_id,
            'error_message', n.error_message, 'error_message_detail', n.error_message_detail) as data
        from new_rows n join old_rows o on o.id = n.id
        where n.status is distinct from o.status
          and n.company_id in (select company_id from webhook_endpoints
                               where enabled and events && array['message.status_changed', '*']))
      insert into webhook_deliveries (endpoint_id, company_id, event_id, event_type, order_key, data, occurred_at, next_attempt_at)
      select e.id, c.company_id, c.event_id, 'message.status_changed', c.message_id, c.data, c.occurred_at,
        greatest(now(), (select max(p.next_attempt_at) from webhook_deliveries p
          where p.endpoint_id = e.id and p.order_key = c.message_id and p.state = 'PENDING'))
      from c join webhook_endpoints e on e.company_id = c.company_id and e.enabled
                              and e.events && array['message.status_changed', '*']
      order by c.message_id, e.id $q$;
      return null;
    end
    $fn$`.execute(db);
}
