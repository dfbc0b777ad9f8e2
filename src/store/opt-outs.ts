/**
 * SQL for the company's suppression list: its opt-outs (by phone number, BSUID or both; an identifier linked to an
 * opted-out one counts as opted out, recipient-links.ts) and opt-out keywords, and the numbers the network called
 * undeliverable (131026). Every statement takes the company id.
 */
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Database, OptOutsTable } from './schema.js';

type Db = Kysely<Database>;

/** A stored opt-out. */
export type OptOutRow = Selectable<OptOutsTable>;

/** An opt-out to add: a phone number (E.164), a BSUID, or both. */
export interface NewOptOut {
  phone_number?: string | null;
  user_id?: string | null;
  source: string;
  keyword?: string | null;
  reason?: string | null;
  channel_id?: string | null;
  /** `marketing`: MARKETING templates only (the network's user_preferences stop); default `all`. */
  applies_to?: 'all' | 'marketing';
}

/** The columns of an opt-out to add, in insert order. */
function optOutValues(o: NewOptOut) {
  return {
    phone_number: o.phone_number ?? null,
    user_id: o.user_id ?? null,
    source: o.source,
    keyword: o.keyword ?? null,
    reason: o.reason ?? null,
    channel_id: o.channel_id ?? null,
    applies_to: o.applies_to ?? 'all',
  };
}

/**
 * Adds an opt-out unless its phone number or BSUID is already on the list; returns the new row, or undefined when
 * one of them was there.
 */
export async function insertOptOut(db: Db, companyId: string, o: NewOptOut): Promise<OptOutRow | undefined> {
  const v = optOutValues(o);
  const result = await sql<OptOutRow>`
    insert into opt_outs (company_id, phone_number, user_id, source, keyword, reason, channel_id, applies_to)
    values (${companyId}, ${v.phone_number}, ${v.user_id}, ${v.source}, ${v.keyword}, ${v.reason}, ${v.channel_id}, ${v.applies_to})
    on conflict do nothing
    returning *`.execute(db);
  return result.rows[0];
}

/**
 * Adds many opt-outs of one company in one statement; a phone number or BSUID already on the list keeps its first
 * entry. Returns how many were new. The phone numbers and BSUIDs must be distinct.
 */
export async function insertOptOuts(db: Db, companyId: string, rows: NewOptOut[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await sql`
    insert into opt_outs (company_id, phone_number, user_id, source, keyword, reason, channel_id, applies_to)
    select ${companyId}, r.phone_number, r.user_id, r.source, r.keyword, r.reason, r.channel_id, r.applies_to
    from jsonb_to_recordset(${JSON.stringify(rows.map(optOutValues))}::jsonb)
      as r(phone_number text, user_id text, source text, keyword text, reason text, channel_id text, applies_to text)
    order by r.phone_number, r.user_id
    on conflict do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** A recipient as an opt-out names it: a phone number (E.164), a BSUID, or both. */
export interface OptOutKey {
  phone_number: string | null;
  user_id: string | null;
}

/** The company's opt-outs of this phone number or this BSUID (at most two entries), oldest first. */
export async function findOptOuts(db: Db, companyId: string, key: OptOutKey): Promise<OptOutRow[]> {
  const result = await sql<OptOutRow>`
    select * from opt_outs where company_id = ${companyId} and phone_number = ${key.phone_number}
    union
    select * from opt_outs where company_id = ${companyId} and user_id = ${key.user_id}
    order by created_at, phone_number, user_id`.execute(db);
  return result.rows;
}

/**
 * Removes the opt-outs of a recipient: the entries of its phone number or BSUID and of the identifiers the network
 * linked to them (the same person); how many were removed.
 */
export async function deleteOptOutsOfRecipient(db: Db, companyId: string, key: OptOutKey): Promise<number> {
  const result = await sql`
    delete from opt_outs o
    where o.company_id = ${companyId} and (
      o.phone_number in (
        select ${key.phone_number}::text
        union all select l.phone_number from recipient_links l where l.company_id = ${companyId} and l.user_id = ${key.user_id})
      or o.user_id in (
        select ${key.user_id}::text
        union all select l.user_id from recipient_links l where l.company_id = ${companyId} and l.phone_number = ${key.phone_number}))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Removes the network's marketing stop of a recipient (source user_preferences, on its phone number or BSUID): the
 * user resumed marketing messages. Other entries (a STOP reply, the company's own) stay. How many were removed.
 */
export async function deleteMarketingStops(db: Db, companyId: string, key: OptOutKey): Promise<number> {
  const result = await sql`
    delete from opt_outs where company_id = ${companyId} and source = 'user_preferences'
      and (phone_number = ${key.phone_number} or user_id = ${key.user_id})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Moves an opt-out from a BSUID to its successor (the network's `user_id_update`); one that the new BSUID already
 * has is kept (the old BSUID's then stays, harmless: the network no longer uses it). Whether one moved.
 */
export async function moveOptOutUserId(db: Db, companyId: string, from: string, to: string): Promise<boolean> {
  const result = await sql`
    update opt_outs set user_id = ${to}
    where company_id = ${companyId} and user_id = ${from}
      and not exists (select 1 from opt_outs where company_id = ${companyId} and user_id = ${to})`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** `like` pattern of a search text (digits, or BSUID characters and dots: `%` and `_` never reach here). */
const containing = (text: string | undefined) => (text ? `%${text}%` : null);

/**
 * A page of the company's opt-outs, newest first; `digits` keeps phone numbers that contain them, `userIdPart`
 * BSUIDs that contain it (an entry matching either is kept when both are given).
 */
export async function listOptOuts(db: Db, companyId: string, page: { offset: number; limit: number; digits?: string; userIdPart?: string }): Promise<OptOutRow[]> {
  const phones = containing(page.digits);
  const users = containing(page.userIdPart);
  const result = await sql<OptOutRow>`
    select * from opt_outs
    where company_id = ${companyId}
      and ((${phones}::text is null and ${users}::text is null) or phone_number like ${phones} or user_id like ${users})
    order by created_at desc, phone_number, user_id
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return result.rows;
}

/** How many opt-outs the company has (that match the search, as listOptOuts). */
export async function countOptOuts(db: Db, companyId: string, search: { digits?: string; userIdPart?: string } = {}): Promise<number> {
  const phones = containing(search.digits);
  const users = containing(search.userIdPart);
  const result = await sql<{ n: number }>`
    select count(*)::int as n from opt_outs
    where company_id = ${companyId}
      and ((${phones}::text is null and ${users}::text is null) or phone_number like ${phones} or user_id like ${users})`.execute(db);
  return result.rows[0]?.n ?? 0;
}

/** The company's own keywords, or undefined when it uses the defaults. */
export async function findOptOutKeywords(db: Db, companyId: string): Promise<string[] | undefined> {
  const row = await db.selectFrom('opt_out_settings').select('keywords').where('company_id', '=', companyId).executeTakeFirst();
  return row ? (row.keywords as string[]) : undefined;
}

/** Sets the company's keywords. */
export async function upsertOptOutKeywords(db: Db, companyId: string, keywords: string[]): Promise<void> {
  await sql`
    insert into opt_out_settings (company_id, keywords, updated_at) values (${companyId}, ${JSON.stringify(keywords)}::jsonb, now())
    on conflict (company_id) do update set keywords = excluded.keywords, updated_at = now()`.execute(db);
}

/** Why a recipient is suppressed: the company's opt-out list (with its source), or the network called it undeliverable. */
export interface Suppression {
  kind: 'opted_out' | 'undeliverable';
  /** opted_out: the opt-out's source (api, import, inbound_keyword, user_preferences); undeliverable: the stored reason. */
  reason: string;
  /** The inbound keyword of an opt-out by reply. */
  keyword: string | null;
}

/** What a send is checked for: whether its template is MARKETING (marketing-only opt-outs then count too). */
export interface SuppressionScope {
  marketing?: boolean;
}

/**
 * The company's suppressed recipients among these phone numbers and BSUIDs, in one read: an identifier is opted out
 * when it, or an identifier the network linked to it, is on the opt-out list (marketing-only entries count for a
 * MARKETING send); a phone number is undeliverable when the network called it so (131026). An identifier on both
 * counts as opted out. A send to a phone number and a BSUID is suppressed when either is.
 */
export async function findSuppressedRecipients(
  db: Db,
  companyId: string,
  ids: { phones: string[]; userIds: string[] },
  scope: SuppressionScope = {},
): Promise<{ phones: Map<string, Suppression>; userIds: Map<string, Suppression> }> {
  const found = { phones: new Map<string, Suppression>(), userIds: new Map<string, Suppression>() };
  if (ids.phones.length === 0 && ids.userIds.length === 0) return found;
  const marketing = scope.marketing === true;
  const result = await sql<{ asked_phone: string | null; asked_user: string | null; kind: Suppression['kind']; reason: string; keyword: string | null }>`
    with asked as (
      select p as phone, null::text as user_id from unnest(${ids.phones}::text[]) p
      union all
      select null::text, u from unnest(${ids.userIds}::text[]) u
    ), counted as (
      select phone as asked_phone, user_id as asked_user, phone, user_id from asked
      union all
      select a.phone, null::text, null::text, l.user_id from asked a
        join recipient_links l on l.company_id = ${companyId} and l.phone_number = a.phone
      union all
      select null::text, a.user_id, l.phone_number, null::text from asked a
        join recipient_links l on l.company_id = ${companyId} and l.user_id = a.user_id
    )
    select c.asked_phone, c.asked_user, 'opted_out' as kind, o.source as reason, o.keyword from counted c
      join opt_outs o on o.company_id = ${companyId} and o.phone_number = c.phone and (o.applies_to = 'all' or ${marketing})
    union all
    select c.asked_phone, c.asked_user, 'opted_out' as kind, o.source as reason, o.keyword from counted c
      join opt_outs o on o.company_id = ${companyId} and o.user_id = c.user_id and (o.applies_to = 'all' or ${marketing})
    union all
    select a.phone, null::text, 'undeliverable' as kind, s.reason, null::text from asked a
      join suppressed_numbers s on s.company_id = ${companyId} and s.phone_number = a.phone`.execute(db);
  for (const r of result.rows) {
    const map = r.asked_phone !== null ? found.phones : found.userIds;
    const key = r.asked_phone ?? r.asked_user;
    if (key !== null && map.get(key)?.kind !== 'opted_out') map.set(key, { kind: r.kind, reason: r.reason, keyword: r.keyword });
  }
  return found;
}

/** The company's suppressed phone numbers among these (findSuppressedRecipients for phone numbers only). */
export async function findSuppressed(db: Db, companyId: string, numbers: string[], scope: SuppressionScope = {}): Promise<Map<string, Suppression>> {
  return (await findSuppressedRecipients(db, companyId, { phones: numbers, userIds: [] }, scope)).phones;
}

/**
 * A boolean SQL expression: the recipient (a phone number and/or a BSUID, either null) or an identifier linked to it
 * is on the company's opt-out list; `marketing` is a boolean SQL expression (is the template MARKETING?) that lets
 * marketing-only entries count. For statements that read the opt-out with other facts (a single send's).
 * `companyId` and the key's parts are values or SQL expressions (columns of the statement's own rows).
 */
export function optedOutExpression(
  companyId: string | RawBuilder<string>,
  key: OptOutKey | { phone_number: RawBuilder<string | null>; user_id: RawBuilder<string | null> },
  marketing: RawBuilder<boolean> | boolean,
) {
  return sql<boolean>`(
    exists (select 1 from opt_outs o where o.company_id = ${companyId} and (o.applies_to = 'all' or ${marketing})
      and o.phone_number in (
        select ${key.phone_number}::text
        union all select l.phone_number from recipient_links l where l.company_id = ${companyId} and l.user_id = ${key.user_id}::text))
    or exists (select 1 from opt_outs o where o.company_id = ${companyId} and (o.applies_to = 'all' or ${marketing})
      and o.user_id in (
        select ${key.user_id}::text
        union all select l.user_id from recipient_links l where l.company_id = ${companyId} and l.phone_number = ${key.phone_number}::text)))`;
}

/** Adds a number to the company's suppression list (idempotent). */
export async function suppressNumber(db: Db, companyId: string, phoneNumber: string, reason: string): Promise<void> {
  await sql`
    insert into suppressed_numbers (company_id, phone_number, reason) values (${companyId}, ${phoneNumber}, ${reason})
    on conflict do nothing`.execute(db);
}
