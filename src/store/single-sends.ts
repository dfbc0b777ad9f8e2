/** SQL of the single send's request: what it checks, read in one statement. */
import { sql, type Kysely } from 'kysely';
import type { RecipientIds } from '../domain/recipients.js';
import type { ChannelRow } from './channels.js';
import { optedOutExpression } from './opt-outs.js';
import { latestLinkedUserId } from './recipient-links.js';
import type { Database } from './schema.js';
import type { TemplateRow } from './templates.js';

type Db = Kysely<Database>;

/** What a single send checks, read together: the caller's channel, the template on its WABA, the opt-out. */
export interface SingleSendFacts {
  channel: ChannelRow;
  /** The company's live template with this id on the channel's WABA (undefined: none). */
  template: TemplateRow | undefined;
  /**
   * The recipient (its phone number or BSUID, or an identifier linked to either) is on the company's opt-out list
   * (marketing-only entries count for a MARKETING template; false when no recipient was given).
   */
  optedOut: boolean;
  /** The BSUID the network linked to the phone number (the latest link; null: none, or no phone number). */
  linkedUserId: string | null;
  /** The phone number the network linked to the BSUID (null: none, or no BSUID). */
  linkedPhone: string | null;
}

/**
 * The caller's channel (undefined: not the company's, or none), the company's live template with this id on the
 * channel's WABA, whether the recipient is on the company's opt-out list, and what the network linked to its phone
 * number and BSUID: one statement. With `tokenHash`, the same statement checks that the caller's token is still
 * live ('TOKEN_REVOKED' when it is not, whatever else it finds) instead of a lookup of its own before the request.
 * The request used to make three round trips here (findChannel, findTemplate, findOptOut), a pool connection each.
 */
export async function findSingleSendFacts(
  db: Db,
  companyId: string,
  channelId: string,
  templateId: string,
  ids: RecipientIds | null,
  tokenHash?: string,
): Promise<SingleSendFacts | 'TOKEN_REVOKED' | undefined> {
  const phone = ids?.phone ?? null;
  const userId = ids?.userId ?? null;
  // With a token hash: one row always (the token's check), the channel's columns null when it is not the company's.
  const from = tokenHash === undefined
    ? sql`from channels c where c.company_id = ${companyId} and c.id = ${channelId}`
    : sql`from (select exists (select 1 from api_tokens k where k.token_hash = ${tokenHash} and k.company_id = ${companyId} and k.revoked_at is null)
        as tms_token_live) k left join channels c on c.company_id = ${companyId} and c.id = ${channelId}`;
  const result = await sql<
    ChannelRow & {
      tms_token_live?: boolean;
      tms_template: Record<string, unknown> | null;
      tms_opted_out: boolean;
      tms_linked_user_id: string | null;
      tms_linked_phone: string | null;
    }
  >`
    select ${tokenHash === undefined ? sql`` : sql`k.tms_token_live,`} c.*,
      (select to_jsonb(t) from templates t
        where t.company_id = ${companyId} and t.id = ${templateId} and t.waba_id = c.waba_id and t.deleted_at is null) as tms_template,
      ${optedOutExpression(companyId, { phone_number: phone, user_id: userId }, sql<boolean>`exists (select 1 from templates t
        where t.company_id = ${companyId} and t.id = ${templateId} and t.waba_id = c.waba_id and t.category = 'MARKETING')`)} as tms_opted_out,
      ${latestLinkedUserId(companyId, phone)} as tms_linked_user_id,
      (select l.phone_number from recipient_links l where l.company_id = ${companyId} and l.user_id = ${userId}) as tms_linked_phone
    ${from}`.execute(db);
  const row = result.rows[0];
  if (row?.tms_token_live === false) return 'TOKEN_REVOKED';
  if (!row?.id) return undefined;
  const { tms_token_live: _live, tms_template: template, tms_opted_out: optedOut, tms_linked_user_id: linkedUserId, tms_linked_phone: linkedPhone, ...channel } = row;
  return { channel: channel as ChannelRow, template: template ? templateFromJson(template) : undefined, optedOut, linkedUserId, linkedPhone };
}

/** A template row read as JSON: its timestamps (the `*_at` columns) back to Dates, as the typed read gives them. */
function templateFromJson(json: Record<string, unknown>): TemplateRow {
  const row: Record<string, unknown> = { ...json };
  for (const [key, value] of Object.entries(row)) {
    if (key.endsWith('_at') && typeof value === 'string') row[key] = new Date(value);
  }
  return row as unknown as TemplateRow;
}
