/**
 * SQL for the company's suppression list: its opt-outs and opt-out keywords, and the numbers the network called
 * undeliverable (131026). Every statement takes the company id.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, OptOutsTable } from './schema.js';

type Db = Kysely<Database>;

/** A stored opt-out. */
export type OptOutRow = Selectable<OptOutsTable>;

/** An opt-out to add. */
export interface NewOptOut {
  phone_number: string;
  source: string;
  keyword?: string | null;
  reason?: string | null;
  channel_id?: string | null;
}

/** Adds an opt-out unless the number is already on the list; returns the new row, or undefined when it was there. */
export async function insertOptOut(db: Db, companyId: string, o: NewOptOut): Promise<OptOutRow | undefined> {
  const result = await sql<OptOutRow>`
    insert into opt_outs (company_id, phone_number, source, keyword, reason, channel_id)
    values (${companyId}, ${o.phone_number}, ${o.source}, ${o.keyword ?? null}, ${o.reason ?? null}, ${o.channel_id ?? null})
    on conflict (company_id, phone_number) do nothing
    returning *`.execute(db);
  return result.rows[0];
}

/**
 * Adds many opt-outs of one company in one statement; numbers already on the list keep their first entry.
 * Returns how many were new. The numbers must be distinct.
 */
export async function insertOptOuts(db: Db, companyId: string, rows: NewOptOut[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await sql`
    insert into opt_outs (company_id, phone_number, source, keyword, reason, channel_id)
    select ${companyId}, r.phone_number, r.source, r.keyword, r.reason, r.channel_id
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as r(phone_number text, source text, keyword text, reason text, channel_id text)
    order by r.phone_number
    on conflict (company_id, phone_number) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** One opt-out of the company, or undefined. */
export async function findOptOut(db: Db, companyId: string, phoneNumber: string): Promise<OptOutRow | undefined> {
  return db.selectFrom('opt_outs').selectAll().where('company_id', '=', companyId).where('phone_number', '=', phoneNumber).executeTakeFirst();
}

/** Removes an opt-out; whether it was there. */
export async function deleteOptOut(db: Db, companyId: string, phoneNumber: string): Promise<boolean> {
  const result = await db.deleteFrom('opt_outs').where('company_id', '=', companyId).where('phone_number', '=', phoneNumber).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** `like` pattern of a digit string (digits only: nothing to escape). */
const containing = (digits: string | undefined) => (digits ? `%${digits}%` : null);

/** A page of the company's opt-outs, newest first; `digits` keeps numbers that contain them. */
export async function listOptOuts(db: Db, companyId: string, page: { offset: number; limit: number; digits?: string }): Promise<OptOutRow[]> {
  const pattern = containing(page.digits);
  const result = await sql<OptOutRow>`
    select * from opt_outs
    where company_id = ${companyId} and (${pattern}::text is null or phone_number like ${pattern})
    order by created_at desc, phone_number
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return result.rows;
}

/** How many opt-outs the company has (that contain `digits`). */
export async function countOptOuts(db: Db, companyId: string, digits?: string): Promise<number> {
  const pattern = containing(digits);
  const result = await sql<{ n: number }>`
    select count(*)::int as n from opt_outs
    where company_id = ${companyId} and (${pattern}::text is null or phone_number like ${pattern})`.execute(db);
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

/** Why a number is suppressed: the company's opt-out list (with its source), or the network called it undeliverable. */
export interface Suppression {
  kind: 'opted_out' | 'undeliverable';
  /** opted_out: the opt-out's source (api, import, inbound_keyword); undeliverable: the stored reason. */
  reason: string;
  /** The inbound keyword of an opt-out by reply. */
  keyword: string | null;
}

/**
 * The company's suppressed numbers among these: its opt-outs and the numbers known undeliverable after 131026, in
 * one read; a number on both lists counts as opted out.
 */
export async function findSuppressed(db: Db, companyId: string, numbers: string[]): Promise<Map<string, Suppression>> {
  if (numbers.length === 0) return new Map();
  const result = await sql<{ phone_number: string; kind: Suppression['kind']; reason: string; keyword: string | null }>`
    select phone_number, 'opted_out' as kind, source as reason, keyword from opt_outs
    where company_id = ${companyId} and phone_number = any(${numbers}::text[])
    union all
    select phone_number, 'undeliverable' as kind, reason, null as keyword from suppressed_numbers
    where company_id = ${companyId} and phone_number = any(${numbers}::text[])`.execute(db);
  const found = new Map<string, Suppression>();
  for (const r of result.rows) {
    if (found.get(r.phone_number)?.kind !== 'opted_out') found.set(r.phone_number, { kind: r.kind, reason: r.reason, keyword: r.keyword });
  }
  return found;
}

/** Adds a number to the company's suppression list (idempotent). */
export async function suppressNumber(db: Db, companyId: string, phoneNumber: string, reason: string): Promise<void> {
  await sql`
    insert into suppressed_numbers (company_id, phone_number, reason) values (${companyId}, ${phoneNumber}, ${reason})
    on conflict do nothing`.execute(db);
}
