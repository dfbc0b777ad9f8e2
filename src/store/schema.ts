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
  display_phone_number: string;
  verified_name: string;
  status: string;
  quality_rating: string;
  messaging_limit_tier: string | null;
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

/** The whole database. */
export interface Database {
  companies: CompaniesTable;
  api_tokens: ApiTokensTable;
  channels: ChannelsTable;
  webhook_events: WebhookEventsTable;
}
