/**
 * What bulk sends cost at Meta's list price: the company's rate card (its own, or the shipped one), the cost of bulk
 * sends from their cost counters (kept by the status batches; never a count over messages), a start's estimate
 * before anything is sent, and the per-row view of a message's stored pricing.
 */
import type { Kysely } from 'kysely';
import { countryOfRecipient } from '../domain/countries.js';
import type { RecipientIds } from '../domain/recipients.js';
import { costOf, defaultRateCard, parseRateCard, type BillableCount, type CostSummary, type RateCard } from '../domain/pricing/rate-card.js';
import { AppError } from '../errors.js';
import { listBulkSendCosts } from '../store/bulk-send-costs.js';
import { deleteCompanyRateCard, findCompanyRateCard, upsertCompanyRateCard } from '../store/rate-cards.js';
import type { Database } from '../store/schema.js';

type Db = Kysely<Database>;

/** The card a company's costs are priced with: its own, else the shipped one. */
export async function rateCardOf(db: Db, companyId: string): Promise<RateCard> {
  return (await findCompanyRateCard(db, companyId)) ?? defaultRateCard();
}

/** Replaces the company's card (400 RATE_CARD_INVALID naming the field, nothing written, when a figure is bad). */
export async function replaceRateCard(db: Db, companyId: string, body: unknown): Promise<RateCard> {
  const parsed = parseRateCard(body);
  if (!parsed.ok) {
    const [first] = parsed.errors;
    throw new AppError('RATE_CARD_INVALID', first.message, { field: first.field, details: parsed.errors });
  }
  await upsertCompanyRateCard(db, companyId, parsed.card);
  return parsed.card;
}

/** Goes back to the shipped card. */
export async function resetRateCard(db: Db, companyId: string): Promise<RateCard> {
  await deleteCompanyRateCard(db, companyId);
  return defaultRateCard();
}

/** The estimated cost of each bulk send (by id) from its cost counters: one indexed read for all of them. */
export async function costsOfBulkSends(db: Db, companyId: string, bulkSendIds: string[]): Promise<Map<string, CostSummary>> {
  if (bulkSendIds.length === 0) return new Map();
  const [card, rows] = await Promise.all([rateCardOf(db, companyId), listBulkSendCosts(db, bulkSendIds)]);
  const counts = new Map<string, BillableCount[]>(bulkSendIds.map((id) => [id, []]));
  for (const r of rows) counts.get(r.send_wizard_id)?.push({ market: r.market || null, category: r.category, count: r.billable_count });
  return new Map([...counts].map(([id, c]) => [id, costOf(card, c)]));
}

/** Counts a start's rows by market, for its estimate (every row as if delivered and billed). */
export class MarketTally {
  private readonly byMarket = new Map<string, number>();

  /** Counts one recipient (its country from the phone number, else the BSUID's prefix; '' when unknown). */
  add(ids: RecipientIds): void {
    const market = countryOfRecipient(ids) ?? '';
    this.byMarket.set(market, (this.byMarket.get(market) ?? 0) + 1);
  }

  /** The estimate of these rows in one pricing category. */
  estimate(card: RateCard, category: string): CostSummary {
    return costOf(card, [...this.byMarket].map(([market, count]) => ({ market: market || null, category, count })));
  }
}

/** The pricing a report row or message record shows: null until a status webhook carried one. */
export function pricingView(r: { pricing_category?: unknown; pricing_type?: unknown; pricing_billable?: unknown; pricing_model?: unknown }) {
  if (typeof r.pricing_category !== 'string') return null;
  return {
    category: r.pricing_category,
    type: (r.pricing_type as string | null) ?? null,
    billable: r.pricing_billable === true,
    pricing_model: (r.pricing_model as string | null) ?? null,
  };
}

/** The market of a row: the recipient's country from its phone number, else its BSUID's prefix (null when unknown). */
export function marketOf(row: { phone_number?: unknown; user_id?: unknown }): string | null {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return countryOfRecipient({ phone: text(row.phone_number), userId: text(row.user_id) });
}
