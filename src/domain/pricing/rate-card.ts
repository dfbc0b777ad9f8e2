/**
 * What a message costs at Meta's list price: the rate card (a price per market and pricing category, in one
 * currency, with its effective date and the source of each figure), its validation, and the estimated cost of a
 * set of billable messages. An estimate, never an invoice: volume tiers, free windows, taxes and a provider's own
 * fees are not in it, and a market or category without a known figure is reported as unknown, never priced.
 */
import type { ErrorElement } from '../../errors.js';
import { DELIVERY_RANK } from '../message-states.js';
import shipped from './meta-rate-card.json' with { type: 'json' };

/** The pricing categories of Meta's status webhooks (`pricing.category`, research §9), declared once. */
export const PRICING_CATEGORIES = ['marketing', 'marketing_lite', 'utility', 'authentication', 'authentication_international', 'service'] as const;
/** A pricing category. */
export type PricingCategory = (typeof PRICING_CATEGORIES)[number];

/** The delivery rank of a message on the phone (the network's `delivered`, BACKEND_SENT). */
const DELIVERED_RANK = DELIVERY_RANK.BACKEND_SENT!;

/** Said wherever a cost is shown. */
export const LIST_PRICE_NOTE = "Estimated at Meta's list price per delivered message; not an invoice.";

/** One figure of a card: `price` null = unknown. */
export interface RateEntry {
  /** ISO 3166-1 alpha-2 country of the recipient. */
  market: string;
  category: PricingCategory;
  price: number | null;
  /** Where the figure comes from (a URL or a short text); null when not given. */
  source: string | null;
}

/** A rate card: the shipped one, or a company's replacement. */
export interface RateCard {
  source: 'default' | 'company';
  /** ISO 4217, e.g. USD. */
  currency: string;
  /** YYYY-MM-DD. */
  effective_date: string;
  note: string;
  rates: RateEntry[];
}

/** Most figures a card may hold (every country × every category fits). */
export const MAX_RATE_ENTRIES = 2000;

/** The card shipped with the service (`meta-rate-card.json`), every figure with its source. */
export function defaultRateCard(): RateCard {
  const sourceUrl = (key: string) => (shipped.sources as Record<string, { url: string }>)[key].url;
  const marketSource = sourceUrl(shipped.market_figures_source);
  const liteSource = sourceUrl(shipped.derived.marketing_lite.source);
  const rates: RateEntry[] = [];
  for (const m of shipped.markets) {
    for (const category of ['marketing', 'utility', 'authentication', 'service'] as const) {
      rates.push({ market: m.market, category, price: m[category], source: marketSource });
    }
    rates.push({ market: m.market, category: 'marketing_lite', price: m.marketing, source: liteSource });
    rates.push({ market: m.market, category: 'authentication_international', price: null, source: null });
  }
  return { source: 'default', currency: shipped.currency, effective_date: shipped.effective_date, note: shipped.note, rates };
}

const MARKET = /^[A-Z]{2}$/;
const CURRENCY = /^[A-Z]{3}$/;

function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** A price in millionths (prices have at most 6 decimals, so sums stay exact integers). */
function micros(price: number): number {
  return Math.round(price * 1e6);
}

/**
 * Checks a company's replacement card (`{currency, effective_date, note?, rates: [{market, category, price, source?}]}`);
 * every error names its field (`rates[3].price`). A price is a number ≥ 0 with at most 6 decimals, or null (unknown).
 */
export function parseRateCard(body: unknown): { ok: true; card: RateCard } | { ok: false; errors: ErrorElement[] } {
  const errors: ErrorElement[] = [];
  const fail = (field: string, message: string) => errors.push({ code: 'RATE_CARD_INVALID', message, field });
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  if (typeof b.currency !== 'string' || !CURRENCY.test(b.currency)) fail('currency', 'currency is an ISO 4217 code of three capital letters, e.g. USD');
  if (typeof b.effective_date !== 'string' || !isIsoDate(b.effective_date)) fail('effective_date', 'effective_date is a date YYYY-MM-DD');
  if (b.note !== undefined && (typeof b.note !== 'string' || b.note.length > 2000)) fail('note', 'note is a text of at most 2000 characters');
  const rates: RateEntry[] = [];
  if (!Array.isArray(b.rates)) fail('rates', 'rates is an array of {market, category, price, source?}');
  else if (b.rates.length > MAX_RATE_ENTRIES) fail('rates', `rates holds at most ${MAX_RATE_ENTRIES} figures`);
  else {
    const seen = new Set<string>();
    b.rates.forEach((raw, i) => {
      const at = `rates[${i}]`;
      const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
      const before = errors.length;
      if (typeof r.market !== 'string' || !MARKET.test(r.market)) fail(`${at}.market`, 'market is an ISO 3166-1 alpha-2 country code of two capital letters, e.g. AR');
      if (typeof r.category !== 'string' || !(PRICING_CATEGORIES as readonly string[]).includes(r.category)) {
        fail(`${at}.category`, `category is one of ${PRICING_CATEGORIES.join(', ')}`);
      }
      const price = r.price;
      if (price !== null && (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || price > 1e6 || Math.abs(micros(price) / 1e6 - price) > 1e-9)) {
        fail(`${at}.price`, 'price is a number from 0 with at most 6 decimals, or null when unknown');
      }
      if (r.source !== undefined && r.source !== null && (typeof r.source !== 'string' || r.source.length > 500)) fail(`${at}.source`, 'source is a text of at most 500 characters');
      if (errors.length > before) return;
      const key = `${r.market as string}/${r.category as string}`;
      if (seen.has(key)) {
        fail(`${at}.category`, `${r.market as string} ${r.category as string} is given twice`);
        return;
      }
      seen.add(key);
      rates.push({ market: r.market as string, category: r.category as PricingCategory, price: price as number | null, source: (r.source as string | undefined) ?? null });
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, card: { source: 'company', currency: b.currency as string, effective_date: b.effective_date as string, note: (b.note as string | undefined) ?? '', rates } };
}

/** Billable messages of one market (null = unknown) and pricing category. */
export interface BillableCount {
  market: string | null;
  category: string;
  count: number;
}

/** One line of a cost: its price (null = unknown) and cost. */
export interface CostLine {
  market: string | null;
  category: string;
  billable_count: number;
  price: number | null;
  cost: number | null;
}

/** The estimated cost of billable messages, as every report and dry run shows it. */
export interface CostSummary {
  currency: string;
  /** Sum over the lines with a known price (rounded to 6 decimals). */
  estimated_cost: number;
  /** False when some billable message has no known price (see unknown_price_count). */
  complete: boolean;
  billable_count: number;
  unknown_price_count: number;
  by_market: CostLine[];
  rate_card_effective_date: string;
  rate_card_source: RateCard['source'];
  note: string;
}

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Prices the counts with the card (lines sorted by market, then category; the unknown market last). */
export function costOf(card: RateCard, counts: readonly BillableCount[]): CostSummary {
  const prices = new Map(card.rates.map((r) => [`${r.market}/${r.category}`, r.price]));
  const merged = new Map<string, BillableCount>();
  for (const c of counts) {
    if (c.count === 0) continue;
    const key = `${c.market ?? ''}/${c.category}`;
    const line = merged.get(key);
    if (line) line.count += c.count;
    else merged.set(key, { ...c });
  }
  let totalMicros = 0;
  let billable = 0;
  let unknown = 0;
  const lines = [...merged.values()]
    .sort((a, b) => order(a.market ?? '~', b.market ?? '~') || order(a.category, b.category))
    .map((c): CostLine => {
      const price = c.market === null ? null : prices.get(`${c.market}/${c.category}`) ?? null;
      billable += c.count;
      if (price === null) {
        unknown += c.count;
        return { market: c.market, category: c.category, billable_count: c.count, price: null, cost: null };
      }
      const lineMicros = micros(price) * c.count;
      totalMicros += lineMicros;
      return { market: c.market, category: c.category, billable_count: c.count, price, cost: lineMicros / 1e6 };
    });
  return {
    currency: card.currency,
    estimated_cost: totalMicros / 1e6,
    complete: unknown === 0,
    billable_count: billable,
    unknown_price_count: unknown,
    by_market: lines,
    rate_card_effective_date: card.effective_date,
    rate_card_source: card.source,
    note: LIST_PRICE_NOTE,
  };
}

/**
 * The pricing category a template send will be billed under: the template's category in lower case, and
 * `marketing_lite` for a MARKETING template sent through the Marketing Messages API.
 */
export function pricingCategoryOf(templateCategory: string, viaMarketingMessages: boolean): string {
  const category = templateCategory.toLowerCase();
  return category === 'marketing' && viaMarketingMessages ? 'marketing_lite' : category;
}

/** A status webhook's `pricing`, as stored per message. */
export interface MessagePricing {
  category: string;
  /** regular, free_customer_service, free_entry_point; null when the network gave none. */
  type: string | null;
  billable: boolean;
  /** PMP (per message) or the older CBP; null when not given. */
  pricing_model: string | null;
}

const short = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 && v.length <= 64 ? v : null);

/**
 * Reads a status's `pricing` object; null when there is none or it has no category. `type` decides billability when
 * present (`regular` is billed; `billable` is deprecated in its favour), else `billable`.
 */
export function parsePricing(raw: unknown): MessagePricing | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const p = raw as Record<string, unknown>;
  const category = short(p.category)?.toLowerCase();
  if (!category) return null;
  const type = short(p.type);
  return { category, type, billable: type !== null ? type === 'regular' : p.billable === true, pricing_model: short(p.pricing_model) };
}

/**
 * Whether a message is billed: its pricing says billable and it reached the phone (`delivered` or `read`; Meta charges
 * only delivered template messages). `sent` alone carries pricing too, so the rank decides.
 */
export function isBilled(billable: boolean | null, reachedRank: number): boolean {
  return billable === true && reachedRank >= DELIVERED_RANK;
}
