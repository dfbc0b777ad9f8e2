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
  throughput_mps: ColumnType<number, number | undefined, number>;
  refreshed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
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

/** The whole database. */
export interface Database {
  companies: CompaniesTable;
  api_tokens: ApiTokensTable;
  channels: ChannelsTable;
  webhook_events: WebhookEventsTable;
  templates: TemplatesTable;
  template_name_checks: TemplateNameChecksTable;
  media_uploads: MediaUploadsTable;
}
