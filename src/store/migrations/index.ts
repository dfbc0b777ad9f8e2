/**
 * The numbered, forward-only migrations. Add a file `NNNN_name.ts` exporting `up` and list it here;
 * never edit or remove one that has shipped.
 */
import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_templates.js';
import * as m0003 from './0003_messages.js';
import * as m0004 from './0004_template_sync.js';
import * as m0005 from './0005_channel_truth.js';
import * as m0006 from './0006_idempotency_keys.js';
import * as m0007 from './0007_bounded_waits.js';
import * as m0008 from './0008_tier_window.js';
import * as m0009 from './0009_client_webhooks_outbox.js';
import * as m0010 from './0010_bulk_send_lifecycle.js';
import * as m0011 from './0011_opt_outs.js';
import * as m0012 from './0012_report_status_index.js';
import * as m0013 from './0013_claim_order_index.js';
import * as m0014 from './0014_single_send_metrics_index.js';
import * as m0015 from './0015_messages_fewer_index_entries.js';
import * as m0017 from './0017_dispatcher_instances.js';
import * as m0018 from './0018_outbox_plans_per_statement.js';
import * as m0019 from './0019_bulk_send_name.js';
import * as m0020 from './0020_pricing.js';
import * as m0021 from './0021_messages_by_recipient.js';
import * as m0022 from './0022_single_sends_by_time.js';
import * as m0023 from './0023_bulk_send_skipped_rows.js';
import * as m0024 from './0024_stop_cancels_in_batches.js';
import * as m0025 from './0025_outbox_followers_wait.js';
import * as m0026 from './0026_recipient_ids.js';
import * as m0027 from './0027_webhook_rejected_items.js';
import * as m0028 from './0028_failed_messages_not_delivered.js';
import * as m0029 from './0029_sends_to_bsuid.js';
import * as m0030 from './0030_idempotency_key_instance.js';
import * as m0031 from './0031_storing_bulk_sends.js';
import * as m0032 from './0032_messages_reference_checks.js';
import * as m0033 from './0033_message_payload_json.js';
import * as m0034 from './0034_webhook_bodies_lz4.js';
import * as m0035 from './0035_webhook_event_channels.js';

export const MIGRATIONS: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_templates': m0002,
  '0003_messages': m0003,
  '0004_template_sync': m0004,
  '0005_channel_truth': m0005,
  '0006_idempotency_keys': m0006,
  '0007_bounded_waits': m0007,
  '0008_tier_window': m0008,
  '0009_client_webhooks_outbox': m0009,
  '0010_bulk_send_lifecycle': m0010,
  '0011_opt_outs': m0011,
  '0012_report_status_index': m0012,
  '0013_claim_order_index': m0013,
  '0014_single_send_metrics_index': m0014,
  '0015_messages_fewer_index_entries': m0015,
  '0017_dispatcher_instances': m0017,
  '0018_outbox_plans_per_statement': m0018,
  '0019_bulk_send_name': m0019,
  '0020_pricing': m0020,
  '0021_messages_by_recipient': m0021,
  '0022_single_sends_by_time': m0022,
  '0023_bulk_send_skipped_rows': m0023,
  '0024_stop_cancels_in_batches': m0024,
  '0025_outbox_followers_wait': m0025,
  '0026_recipient_ids': m0026,
  '0027_webhook_rejected_items': m0027,
  '0028_failed_messages_not_delivered': m0028,
  '0029_sends_to_bsuid': m0029,
  '0030_idempotency_key_instance': m0030,
  '0031_storing_bulk_sends': m0031,
  '0032_messages_reference_checks': m0032,
  '0033_message_payload_json': m0033,
  '0034_webhook_bodies_lz4': m0034,
  '0035_webhook_event_channels': m0035,
};
