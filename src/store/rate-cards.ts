/** SQL of a company's rate card (migration 0020); no row means the shipped card (domain/pricing). */
import { sql, type Kysely } from 'kysely';
import type { RateCard, RateEntry } from '../domain/pricing/rate-card.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** The company's own card, or undefined when it uses the shipped one. */
export async function findCompanyRateCard(db: Db, companyId: string): Promise<RateCard | undefined> {
  const result = await sql<{ currency: string; effective_date: string; note: string; rates: RateEntry[] }>`
    select currency, effective_date, note, rates from company_rate_cards where company_id = ${companyId}`.execute(db);
  const row = result.rows[0];
  return row ? { source: 'company', currency: row.currency, effective_date: row.effective_date, note: row.note, rates: row.rates } : undefined;
}

/** Replaces the company's card as a whole. */
export async function upsertCompanyRateCard(db: Db, companyId: string, card: RateCard): Promise<void> {
  await sql`
    insert into company_rate_cards (company_id, currency, effective_date, note, rates)
    values (${companyId}, ${card.currency}, ${card.effective_date}, ${card.note}, ${JSON.stringify(card.rates)}::jsonb)
    on conflict (company_id) do update set currency = excluded.currency, effective_date = excluded.effective_date,
      note = excluded.note, rates = excluded.rates, updated_at = now()`.execute(db);
}

/** Goes back to the shipped card; true when the company had its own. */
export async function deleteCompanyRateCard(db: Db, companyId: string): Promise<boolean> {
  const result = await sql`delete from company_rate_cards where company_id = ${companyId}`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}
