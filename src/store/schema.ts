/** Table types for kysely: one interface per table, matching the migrations. */
import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface CompaniesTable {
  id: string;
  name: string;
  created_at: CreatedAt;
}

export interface ApiTokensTable {
  id: string;
  company_id: string;
  /** SHA-256 of the token, hex; the token itself is never stored. */
  token_hash: string;
  name: string;
  created_at: CreatedAt;
  revoked_at: Date | null;
}

export interface ChannelsTable {
  /** The network's phone number id (= channel_id). */
  id: string;
  company_id: string;
  waba_id: string;
  /** The network access token; never returned by the API. */
  access_token: string;
  display_phone_number: ColumnType<string, string | undefined, string>;
  verified_name: ColumnType<string, string | undefined, string>;
  status: ColumnType<string, string | undefined, string>;
  quality_rating: ColumnType<string, string | undefined, string>;
  messaging_limit_tier: ColumnType<string | null, string | null | undefined, string | null>;
  /** Messages per second of the network's `throughput.level` (80 until read). */
  throughput_mps: ColumnType<number, number | undefined, number>;
  /** The operator's rate (`tms channel add|update --throughput`); null = follow the network. */
  throughput_override_mps: ColumnType<number | null, number | null | undefined, number | null>;
  /** The network's `throughput.level` (STANDARD, HIGH), null until read or when not reported. */
  throughput_level: ColumnType<string | null, string | null | undefined, string | null>;
  refreshed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** A channel-level failure (expired token, missing permission, locked account) as a paused_reason; null when none. */
  auth_error: ColumnType<string | null, string | null | undefined, string | null>;
  auth_failed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Not used again (no network call) before this time, unless the token is rotated. */
  auth_retry_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Consecutive channel-level failures (the back-off grows with it). */
  auth_failures: ColumnType<number, number | undefined, number>;
  /** Send MARKETING templates through `/marketing_messages` (migration 0020). */
  marketing_messages_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** Why the service switched it off (the network refused the account); null when on or switched off by the user. */
  marketing_messages_disabled_reason: ColumnType<string | null, string | null | undefined, string | null>;
  marketing_messages_disabled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface WebhookEventsTable {
  id: Generated<string>;
  received_at: CreatedAt;
  /** The raw body as received (checked against its signature before it was stored). */
  body: string;
  /** RECEIVED until applied; APPLIED or FAILED after. */
  state: string;
  attempts: ColumnType<number, number | undefined, number>;
  applied_at: Date | null;
  last_error: string | null;
  /** The one channel (phone number id) the body's changes concern; null when none or several (its inbox lane). */
  phone_number_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An item of a signed webhook body that could not be applied (migration 0027). */
export interface WebhookRejectedItemsTable {
  id: Generated<string>;
  received_at: CreatedAt;
  /** `statuses` or `messages`: the array of the change the item was in. */
  field: string;
  phone_number_id: string | null;
  reason: string;
  /** The item as JSON text, at most 8 KB. */
  item: string;
}

export interface TemplatesTable {
  /** The network's template id. */
  id: string;
  company_id: string;
  /** The channel it was created through; it belongs to that channel's WABA. */
  channel_id: string;
  waba_id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  /** Stored form (upper-case types), as JSON. */
  components: ColumnType<unknown, string, string>;
  allow_category_change: ColumnType<boolean, boolean | undefined, boolean>;
  rejected_reason: ColumnType<string | null, string | null | undefined, string | null>;
  quality_score: ColumnType<string | null, string | null | undefined, string | null>;
  media_names: ColumnType<unknown, string | null | undefined, string | null>;
  status_refreshed_at: ColumnType<Date, Date | undefined, Date>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** `service` (created through us) or `network` (imported from the WABA listing). */
  source: ColumnType<string, string | undefined, string>;
  /** POSITIONAL or NAMED, as the network reports it. */
  parameter_format: ColumnType<string, string | undefined, string>;
  /** The components exactly as the network returned them (imported or synced rows), as JSON. */
  network_components: ColumnType<unknown, string | null | undefined, string | null>;
}

/** When a company's WABA template listing was last tried and last read completely. */
export interface TemplateSyncsTable {
  company_id: string;
  waba_id: string;
  attempted_at: ColumnType<Date, Date | undefined, Date>;
  synced_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface TemplateNameChecksTable {
  company_id: string;
  channel_id: string;
  name: string;
  checked_at: ColumnType<Date, Date | undefined, Date>;
}

export interface MediaUploadsTable {
  file_handle: string;
  company_id: string;
  channel_id: string;
  file_name: string;
  file_type: string;
  file_length: ColumnType<string, number, never>;
  created_at: CreatedAt;
}

/** Messages (single sends and bulk rows); written with SQL in message-inserts.ts, message-moves.ts, message-status-events.ts and message-waits.ts, typed here for reads. */
export interface MessagesTable {
  id: string;
  company_id: string;
  channel_id: string;
  template_id: string;
  waba_id: string;
  send_wizard_id: string | null;
  row_no: number | null;
  row_ref: string | null;
  /** E.164; null for a message sent to a BSUID only. */
  phone_number: string | null;
  full_name: string | null;
  status: string;
  reached_rank: number;
  payload: unknown;
  due_at: Date;
  lease_owner: string | null;
  lease_until: Date | null;
  attempts: number;
  send_attempted_at: Date | null;
  ext_id: string | null;
  backend_sended_time: Date | null;
  sended_time: Date | null;
  delivered_time: Date | null;
  seen_time: Date | null;
  failed_time: Date | null;
  error_message: string | null;
  error_message_detail: string | null;
  webhook_response: unknown;
  version: number;
  created_at: Date;
  updated_at: Date;
  /** `pricing` of the status webhooks (migration 0020); null until a status carried it. */
  pricing_category: string | null;
  pricing_type: string | null;
  pricing_billable: boolean | null;
  pricing_model: string | null;
  /** Delivery rank of the status whose pricing is stored (a higher one replaces it). */
  pricing_rank: number | null;
  /** The BSUID sent to, or that the network reported for the recipient (migration 0026). */
  user_id: string | null;
  /** The parent BSUID the network reported. */
  parent_user_id: string | null;
  /** The username the network showed. */
  username: string | null;
}

/** Bulk sends with their counters (table send_wizards; SQL in bulk-sends.ts and bulk-lifecycle.ts). */
export interface BulkSendsTable {
  id: string;
  company_id: string;
  channel_id: string;
  template_id: string;
  template_name: string;
  /** The bulk send's own optional name (domain/bulk-send-name.ts). */
  send_name: string | null;
  /** Rows its start left out as invalid (skip_invalid_rows); listed in bulk_send_skipped_rows. */
  skipped_count: number;
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
  /** Lifecycle (migration 0010): scheduling, user pause, retry of failed rows. */
  scheduled_at: Date | null;
  window_ends_at: Date | null;
  spread_from: Date | null;
  spread_seconds: number | null;
  spread_first_row: number | null;
  user_paused_at: Date | null;
  retry_of: string | null;
  /** The Marketing Messages API's TTL for this bulk send (migration 0020); null = the network's default. */
  message_send_ttl_seconds: number | null;
  /** A stop left rows to cancel (migration 0024): the maintenance cancels them in batches, then clears it. */
  cancelling: boolean;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Status events kept until their message is known. */
export interface PendingStatusEventsTable {
  id: Generated<string>;
  wamid: string;
  callback_data: string | null;
  status: string;
  body: unknown;
  received_at: Date;
  attempts: number;
}

/** Idempotency keys: the reservation and then the first answer of a request sent with `Idempotency-Key`. */
export interface IdempotencyKeysTable {
  company_id: string;
  key: string;
  request_hash: string;
  /** IN_PROGRESS (reserved, work running) or DONE (answer stored). */
  state: string;
  /** The attempt holding the reservation (a random token; the work's transaction checks it). */
  owner: string;
  /** The instance running the attempt (dispatcher_instances.owner), null for keys stored before migration 0030. */
  instance: string | null;
  locked_until: Date;
  status_code: number | null;
  response: string | null;
  created_at: ColumnType<Date, Date | undefined, Date>;
}

/** When a channel's last status webhook arrived, and since when its status webhooks look stale (alert). */
export interface ChannelStatusWebhooksTable {
  channel_id: string;
  last_status_at: Date | null;
  stale_since: Date | null;
}

/** The company's opt-outs (its suppression list; migration 0011). */
export interface OptOutsTable {
  company_id: string;
  /** E.164, as messages store it; null for an entry by BSUID only. */
  phone_number: string | null;
  /** The BSUID (`domain/recipients.ts`); null for an entry by phone number only. */
  user_id: string | null;
  /** api, import, inbound_keyword or user_preferences. */
  source: string;
  /** `all`, or `marketing` (the network's user_preferences stop: MARKETING templates only). */
  applies_to: Generated<string>;
  /** The inbound keyword that matched (inbound_keyword only). */
  keyword: string | null;
  /** Free text given with an API add or an import line. */
  reason: string | null;
  /** The channel the opt-out reply came in on (inbound_keyword only). */
  channel_id: string | null;
  created_at: CreatedAt;
}

/** A company's opt-out keywords (no row: the defaults). */
export interface OptOutSettingsTable {
  company_id: string;
  keywords: unknown;
  updated_at: UpdatedAt;
}

/** A company's client webhook endpoint (webhook-endpoints.ts); `secret` is sealed (SecretBox). */
export interface WebhookEndpointsTable {
  id: string;
  company_id: string;
  url: string;
  description: string;
  /** Subscribed event types (`message.status_changed`, `bulk_send.status_changed`) or `*`. */
  events: string[];
  secret: string;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  consecutive_failures: number;
  failing_since: Date | null;
  last_success_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The client webhook outbox: one row per event and endpoint, written by triggers (migration 0009). */
export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  company_id: string;
  event_id: string;
  event_type: string;
  /** The subject whose events are delivered in order (message id or bulk send id; `replay:<id>` for replays). */
  order_key: string;
  data: unknown;
  occurred_at: Date;
  /** PENDING (to deliver or retrying), DELIVERED, FAILED (given up). */
  state: string;
  attempts: number;
  next_attempt_at: Date;
  lease_owner: string | null;
  lease_until: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  replay_of: string | null;
  created_at: Date;
}

/** Billable messages of a bulk send by pricing category and market ('' = unknown), kept per status batch (0020). */
export interface BulkSendCostsTable {
  send_wizard_id: string;
  category: string;
  market: string;
  billable_count: ColumnType<string, number | string, number | string>;
}

/** Rows a bulk start left out as invalid (0021): the row's number in the client's list and its first problem. */
export interface BulkSendSkippedRowsTable {
  send_wizard_id: string;
  position: number;
  row_no: ColumnType<string, number | string, number | string>;
  row_ref: ColumnType<string | null, number | null, number | null>;
  phone_number: string | null;
  field: string | null;
  message: string;
}

/** A company's rate card replacing the shipped one (0020). */
export interface CompanyRateCardsTable {
  company_id: string;
  currency: string;
  effective_date: string;
  note: string;
  rates: ColumnType<unknown, string, string>;
  updated_at: UpdatedAt;
}

/** The whole database. */
/** A phone number and a BSUID the network showed to be one person, per company (recipient-links.ts). */
export interface RecipientLinksTable {
  company_id: string;
  user_id: string;
  /** E.164. */
  phone_number: string;
  parent_user_id: string | null;
  username: string | null;
  /** status_webhook, inbound_message, contact_request or user_id_update. */
  source: string;
  learned_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface Database {
  companies: CompaniesTable;
  api_tokens: ApiTokensTable;
  channels: ChannelsTable;
  webhook_events: WebhookEventsTable;
  webhook_rejected_items: WebhookRejectedItemsTable;
  templates: TemplatesTable;
  template_name_checks: TemplateNameChecksTable;
  template_syncs: TemplateSyncsTable;
  media_uploads: MediaUploadsTable;
  messages: MessagesTable;
  send_wizards: BulkSendsTable;
  pending_status_events: PendingStatusEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  channel_status_webhooks: ChannelStatusWebhooksTable;
  opt_outs: OptOutsTable;
  opt_out_settings: OptOutSettingsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  bulk_send_costs: BulkSendCostsTable;
  company_rate_cards: CompanyRateCardsTable;
  bulk_send_skipped_rows: BulkSendSkippedRowsTable;
  recipient_links: RecipientLinksTable;
}
