/**
 * SQL for the company's recipient links (migration 0026): a phone number and a BSUID the network showed together
 * (a webhook carrying both, a contact-request answer), so a rule set on one identifier (an opt-out, the recipient key)
 * holds for the other; and moving a BSUID when the network says it changed. Every statement takes the company id.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, RecipientLinksTable } from './schema.js';

type Db = Kysely<Database>;

/** A stored link. */
export type RecipientLinkRow = Selectable<RecipientLinksTable>;

/** Why a link is known. */
export const LINK_SOURCES = ['status_webhook', 'inbound_message', 'contact_request', 'user_id_update'] as const;
/** One of LINK_SOURCES. */
export type LinkSource = (typeof LINK_SOURCES)[number];

/** A link to record: a phone number (E.164) and a BSUID, with what else the network showed. */
export interface NewRecipientLink {
  phone_number: string;
  user_id: string;
  parent_user_id?: string | null;
  username?: string | null;
  source: LinkSource;
}

/**
 * Records links (one statement). A BSUID already linked takes the new phone number (the latest the network showed);
 * a parent BSUID or username is kept when the new sighting has none. `learned_at` stays the first sighting's.
 * Rows are written in BSUID order (concurrent batches lock the same rows in one order). Returns how many were new
 * or changed.
 */
export async function upsertRecipientLinks(db: Db, companyId: string, links: NewRecipientLink[]): Promise<number> {
  if (links.length === 0) return 0;
  const byUser = new Map<string, NewRecipientLink>();
  for (const l of links) byUser.set(l.user_id, l);
  const rows = [...byUser.values()].map((l) => ({
    user_id: l.user_id,
    phone_number: l.phone_number,
    parent_user_id: l.parent_user_id ?? null,
    username: l.username ?? null,
    source: l.source,
  }));
  const result = await sql`
    insert into recipient_links as l (company_id, user_id, phone_number, parent_user_id, username, source)
    select ${companyId}, r.user_id, r.phone_number, r.parent_user_id, r.username, r.source
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as r(user_id text, phone_number text, parent_user_id text, username text, source text)
    order by r.user_id
    on conflict (company_id, user_id) do update set
      phone_number = excluded.phone_number,
      parent_user_id = coalesce(excluded.parent_user_id, l.parent_user_id),
      username = coalesce(excluded.username, l.username),
      source = excluded.source,
      updated_at = now()
    where l.phone_number is distinct from excluded.phone_number
      or (excluded.parent_user_id is not null and l.parent_user_id is distinct from excluded.parent_user_id)
      or (excluded.username is not null and l.username is distinct from excluded.username)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The BSUID the network last linked to a phone number (the latest seen when several are; null: none), as a scalar SQL
 * subquery: one probe of `recipient_links_by_phone`. `companyId` and `phone` are SQL expressions or values.
 */
export function latestLinkedUserId(companyId: unknown, phone: unknown) {
  return sql<string | null>`(select l.user_id from recipient_links l where l.company_id = ${companyId} and l.phone_number = ${phone}
    order by l.updated_at desc, l.user_id limit 1)`;
}

/**
 * The BSUID linked to each phone number (the latest seen when several are), for those that have one: one probe of
 * `recipient_links_by_phone` per number. Written as `phone_number = any(...)` over the table, a planner without
 * fresh statistics (PGlite never gathers them; PostgreSQL with autovacuum off) read every link of the company through
 * the primary key and filtered them, a cost that grew with the links on every batch a sender gated. A company with
 * no link at all (the `exists`, evaluated once per statement) skips the probes: a large start reads its rows' links
 * a thousand numbers at a time.
 */
export async function findUserIdsOfPhones(db: Db, companyId: string, phones: string[]): Promise<Map<string, string>> {
  if (phones.length === 0) return new Map();
  const result = await sql<{ phone_number: string; user_id: string }>`
    select p.phone_number, l.user_id from unnest(${[...new Set(phones)]}::text[]) as p(phone_number)
    cross join lateral (select ${latestLinkedUserId(companyId, sql.ref('p.phone_number'))} as user_id) l
    where l.user_id is not null and exists (select 1 from recipient_links c where c.company_id = ${companyId})`.execute(db);
  return new Map(result.rows.map((r) => [r.phone_number, r.user_id]));
}

/** The phone number linked to each BSUID, for those that have one. */
export async function findPhonesOfUserIds(db: Db, companyId: string, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const result = await sql<{ user_id: string; phone_number: string }>`
    select user_id, phone_number from recipient_links
    where company_id = ${companyId} and user_id = any(${userIds}::text[])`.execute(db);
  return new Map(result.rows.map((r) => [r.user_id, r.phone_number]));
}

/** The company's link of one BSUID, or undefined. */
export async function findRecipientLink(db: Db, companyId: string, userId: string): Promise<RecipientLinkRow | undefined> {
  return db.selectFrom('recipient_links').selectAll().where('company_id', '=', companyId).where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Moves a link from a BSUID to its successor (the network's `user_id_update`); one statement. When the new BSUID
 * is linked already, that link takes the old one's phone number. Whether a link was moved.
 */
export async function moveRecipientLink(db: Db, companyId: string, from: string, to: string, parentUserId: string | null): Promise<boolean> {
  const result = await sql`
    with old as (
      delete from recipient_links where company_id = ${companyId} and user_id = ${from}
      returning company_id, phone_number, parent_user_id, username, learned_at
    )
    insert into recipient_links as l (company_id, user_id, phone_number, parent_user_id, username, source, learned_at)
    select company_id, ${to}, phone_number, coalesce(${parentUserId}::text, parent_user_id), username, 'user_id_update', learned_at from old
    on conflict (company_id, user_id) do update set
      phone_number = excluded.phone_number,
      parent_user_id = coalesce(excluded.parent_user_id, l.parent_user_id),
      username = coalesce(l.username, excluded.username),
      source = excluded.source,
      updated_at = now()`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/**
 * Moves the company's messages from a BSUID to its successor (rows locked in id order, as every statement that
 * locks message rows does); a new parent BSUID replaces the old. How many moved. `skipLocked`: rows another
 * transaction holds are left (for a transaction that already holds message rows: it must not wait for more).
 */
export async function moveMessagesUserId(db: Db, companyId: string, from: string, to: string, parentUserId: string | null, skipLocked = false): Promise<number> {
  const result = await sql`
    with target as (
      select id from messages where user_id = ${from} and company_id = ${companyId} order by id for update ${skipLocked ? sql`skip locked` : sql``}
    )
    update messages m set user_id = ${to}, parent_user_id = coalesce(${parentUserId}::text, m.parent_user_id)
    from target where m.id = target.id`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
