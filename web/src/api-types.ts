/** The API shapes the console reads (as documented at /docs). */

/** An item of GET /api/v1/channels. */
export interface Channel {
  id: string;
  status: string;
  quality_rating: string;
  verified_name: string;
  display_phone_number: string;
  messaging_limit_tier: string;
  whatsapp_account_id: string;
  throughput_mps: number;
  throughput_level: string | null;
  throughput_override_mps: number | null;
  auth_error: string | null;
  refreshed_at: string | null;
  status_webhooks_stale_since: string | null;
  tier_limit: number | null;
  tier_used_24h: number;
  tier_left_24h: number | null;
  tier_window_frees_at: string | null;
  blocked_reason: string | null;
}

/** A bulk send in send-wizard/reports. */
export interface SendWizard {
  name: string;
  send_wizard_id: string;
  /** SCHEDULED and PAUSED_BY_USER are the lifecycle additions (docs/bulk-send-lifecycle.md). */
  status: 'PENDING' | 'SCHEDULED' | 'RUNNING' | 'PAUSED' | 'PAUSED_BY_USER' | 'STOPPED' | 'COMPLETED';
  from_number: string;
  summary: number;
  waiting: number;
  queued: number;
  processed_count: number;
  awaiting_backend_count: number;
  failed_count: number;
  delivered_count: number;
  sent_count: number;
  seen_count: number;
  created_at: number;
  has_button: boolean;
  cancelled_count: number;
  duplicate_count: number;
  total_time: number;
  paused_reason: string | null;
  message_template_id: string;
  channel_id: string;
  scheduled_at?: string | null;
  retry_of?: string | null;
  /** The bulk send's own name (null: none); `name` is the template's. */
  send_name?: string | null;
}

/** Pagination block. */
export interface Pagination {
  page: number;
  page_size: number;
  total: number;
}

/** A row of send-wizard/reports/detail. */
export interface ReportRow {
  row: number;
  row_id: number | null;
  message_id: string;
  phone_number: string;
  full_name: string | null;
  status: string;
  backend_sended_time?: string;
  sended_time?: string;
  delivered_time?: string;
  seen_time?: string;
  failed_time?: string;
  error_message?: string;
  error_message_detail?: string;
  webhook_response?: unknown;
}

/** An item of POST /api/v1/messages. */
export interface MessageRecord {
  _id: string;
  status: string;
  company_id: string;
  phone_number: string;
  from_number: string;
  full_name: string;
  message_template_id: string;
  whatsapp_account_id: string;
  created_at: string;
  updated_at: string;
  __v: number;
  ext_id: string | null;
  webhook_response: unknown;
  send_wizard_id: string | null;
  backend_sended_time: string | null;
  sended_time: string | null;
  delivered_time: string | null;
  seen_time: string | null;
  failed_time: string | null;
  error_message: string | null;
  error_message_detail: string | null;
  [extra: string]: unknown;
}
