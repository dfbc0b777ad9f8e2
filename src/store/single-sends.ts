/** SQL of the single send's request: what it checks, read in one statement. */
import { sql, type Kysely } from 'kysely';
import type { RecipientIds } from '../domain/recipients.js';
import type { ChannelRow } from './channels.js';
import type { NewMessage } from './message-inserts.js';
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
  /** The version of the channel row and of the template row read (`xmin`): unchanged rows keep theirs. */
  versions: { channel: string; template: string | null };
}

/** One single send's question: its company, channel, template, recipient and (when left to the read) token. */
export interface SingleSendAsk {
  companyId: string;
  channelId: string;
  templateId: string;
  ids: RecipientIds | null;
  /** The caller's token hash, checked live here (see findSingleSendFacts). */
  tokenHash?: string;
}

/** What one ask finds: its facts, 'TOKEN_REVOKED', or undefined (the channel is not the company's, or none). */
export type SingleSendAnswer = SingleSendFacts | 'TOKEN_REVOKED' | undefined;

/**
 * For each ask, in order: the caller's channel (undefined: not the company's, or none), the company's live template
 * with this id on the channel's WABA, whether the recipient is on the company's opt-out list, and what the network
 * linked to its phone number and BSUID. With a `tokenHash`, the same row checks that the caller's token is still live
 * and of the company ('TOKEN_REVOKED' when it is not, whatever else it finds) instead of a lookup of its own before
 * the request. One statement for all the asks (the single sends that arrive together are read together); every
 * probe is scoped by the ask's own company. The channel is joined laterally, a primary-key probe per ask: the
 * planner guesses 100 asks for `unnest` and would rather scan a large channels table for a hash join.
 */
export async function findSingleSendFacts(db: Db, asks: readonly SingleSendAsk[]): Promise<SingleSendAnswer[]> {
  if (asks.length === 0) return [];
  const r = (column: string) => sql.ref<string>(`r.${column}`);
  const result = await sql<
    ChannelRow & {
      tms_n: number;
      tms_token_live: boolean | null;
      tms_template: Record<string, unknown> | null;
      tms_opted_out: boolean;
      tms_linked_user_id: string | null;
      tms_linked_phone: string | null;
      tms_channel_version: string;
    }
  >`
    select r.n::int as tms_n,
      case when r.token_hash is null then null else exists (select 1 from api_tokens k
        where k.token_hash = r.token_hash and k.company_id = r.company_id and k.revoked_at is null) end as tms_token_live,
      c.*,
      (select to_jsonb(t) || jsonb_build_object('tms_version', t.xmin::text) from templates t
        where t.company_id = r.company_id and t.id = r.template_id and t.waba_id = c.waba_id and t.deleted_at is null) as tms_template,
      ${optedOutExpression(r('company_id'), { phone_number: r('phone'), user_id: r('user_id') }, sql<boolean>`exists (select 1 from templates t
        where t.company_id = r.company_id and t.id = r.template_id and t.waba_id = c.waba_id and t.category = 'MARKETING')`)} as tms_opted_out,
      ${latestLinkedUserId(r('company_id'), r('phone'))} as tms_linked_user_id,
      (select l.phone_number from recipient_links l where l.company_id = r.company_id and l.user_id = r.user_id) as tms_linked_phone
    from unnest(${asks.map((a) => a.companyId)}::text[], ${asks.map((a) => a.channelId)}::text[], ${asks.map((a) => a.templateId)}::text[],
      ${asks.map((a) => a.ids?.phone ?? null)}::text[], ${asks.map((a) => a.ids?.userId ?? null)}::text[], ${asks.map((a) => a.tokenHash ?? null)}::text[])
      with ordinality as r(company_id, channel_id, template_id, phone, user_id, token_hash, n)
    left join lateral (select c.*, c.xmin::text as tms_channel_version from channels c where c.company_id = r.company_id and c.id = r.channel_id) c on true
    order by r.n`.execute(db);
  const answers: SingleSendAnswer[] = asks.map(() => undefined);
  for (const row of result.rows) {
    const {
      tms_n: n, tms_token_live: live, tms_template: template, tms_opted_out: optedOut, tms_linked_user_id: linkedUserId, tms_linked_phone: linkedPhone,
      tms_channel_version: channelVersion, ...channel
    } = row;
    if (live === false) answers[n - 1] = 'TOKEN_REVOKED';
    else if (channel.id) {
      const { tms_version: templateVersion, ...templateRow } = template ?? {};
      answers[n - 1] = {
        channel: channel as ChannelRow, template: template ? templateFromJson(templateRow) : undefined, optedOut, linkedUserId, linkedPhone,
        versions: { channel: channelVersion, template: typeof templateVersion === 'string' ? templateVersion : null },
      };
    }
  }
  return answers;
}

/** A template row read as JSON: its timestamps (the `*_at` columns) back to Dates, as the typed read gives them. */
function templateFromJson(json: Record<string, unknown>): TemplateRow {
  const row: Record<string, unknown> = { ...json };
  for (const [key, value] of Object.entries(row)) {
    if (key.endsWith('_at') && typeof value === 'string') row[key] = new Date(value);
  }
  return row as unknown as TemplateRow;
}

/**
 * A single send decided on facts read before (SingleSendFacts): its row, and what those decisions rested on that
 * the insert checks again.
 */
export interface RecheckedSingleSend {
  row: NewMessage;
  /** The channel and template rows' versions the request was checked against. */
  versions: { channel: string; template: string };
  /** The caller's token hash when its live check is left to the request (as in findSingleSendFacts). */
  tokenHash?: string;
}

/**
 * Stores each single send whose facts still hold, in one statement, and answers in order whether it was stored:
 * its channel and template rows are the versions it was checked against (any change to either row, such as a
 * health refresh, a status or a pause, makes a new version), the caller's token (when given) is live and of the
 * company, and the recipient is not on the company's opt-out list (the same expression as findSingleSendFacts). A
 * row not stored is left to the caller (its facts are read again). Every probe is scoped by the row's own company.
 */
export async function insertSingleSendsIfUnchanged(db: Db, sends: readonly RecheckedSingleSend[]): Promise<boolean[]> {
  if (sends.length === 0) return [];
  const r = (column: string) => sql.ref<string>(`r.${column}`);
  const items = sends.map(({ row, versions, tokenHash }) => ({
    id: row.id, company_id: row.company_id, channel_id: row.channel_id, template_id: row.template_id, waba_id: row.waba_id,
    phone_number: row.phone_number, user_id: row.user_id ?? null, full_name: row.full_name, status: row.status, payload: row.payload,
    due_at: row.due_at, channel_version: versions.channel, template_version: versions.template, token_hash: tokenHash ?? null,
  }));
  const result = await sql<{ id: string }>`
    insert into messages (id, company_id, channel_id, template_id, waba_id, send_wizard_id, row_no, row_ref,
                          phone_number, user_id, full_name, status, payload, due_at)
    select r.id, r.company_id, r.channel_id, r.template_id, r.waba_id, null, null, null, r.phone_number, r.user_id, r.full_name,
           r.status, r.payload, r.due_at
    from jsonb_to_recordset(${JSON.stringify(items)}::jsonb) as r(id text, company_id text, channel_id text, template_id text,
      waba_id text, phone_number text, user_id text, full_name text, status text, payload jsonb, due_at timestamptz,
      channel_version text, template_version text, token_hash text)
    cross join lateral (select t.category from templates t
      where t.company_id = r.company_id and t.id = r.template_id and t.xmin::text = r.template_version) t
    where exists (select 1 from channels c where c.company_id = r.company_id and c.id = r.channel_id and c.xmin::text = r.channel_version)
      and (r.token_hash is null or (select true from api_tokens k
        where k.token_hash = r.token_hash and k.company_id = r.company_id and k.revoked_at is null limit 1))
      and not ${optedOutExpression(r('company_id'), { phone_number: r('phone_number'), user_id: r('user_id') }, sql<boolean>`t.category = 'MARKETING'`)}
    returning id`.execute(db);
  const stored = new Set(result.rows.map((row) => row.id));
  return sends.map((s) => stored.has(s.row.id));
}
