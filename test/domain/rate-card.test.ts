import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costOf, defaultRateCard, parsePricing, parseRateCard, pricingCategoryOf, PRICING_CATEGORIES } from '../../src/domain/pricing/rate-card.js';

const fields = (r: ReturnType<typeof parseRateCard>) => (r.ok ? [] : r.errors.map((e) => `${e.code} ${e.field}`));
const card = (rates: unknown[], extra: Record<string, unknown> = {}) => parseRateCard({ currency: 'USD', effective_date: '2026-10-01', rates, ...extra });

test('the shipped card is USD, dated, and every figure it prices names its public source', () => {
  const c = defaultRateCard();
  assert.equal(c.currency, 'USD');
  assert.match(c.effective_date, /^\d{4}-\d{2}-\d{2}$/);
  assert.ok(c.rates.length > 0);
  for (const r of c.rates.filter((x) => x.price !== null)) assert.match(r.source ?? '', /^https:\/\//, `${r.market} ${r.category}`);
  for (const r of c.rates) assert.ok((PRICING_CATEGORIES as readonly string[]).includes(r.category));
});
test('the shipped card prices marketing_lite as marketing and leaves authentication_international unknown', () => {
  const rates = defaultRateCard().rates.filter((r) => r.market === 'AR');
  const price = (category: string) => rates.find((r) => r.category === category)?.price;
  assert.equal(price('marketing'), 0.0618);
  assert.equal(price('marketing_lite'), 0.0618);
  assert.equal(price('authentication_international'), null);
});
test('a market the shipped card has no figure for is unknown, not priced', () => {
  const cost = costOf(defaultRateCard(), [{ market: 'TR', category: 'marketing', count: 5 }]);
  assert.deepEqual(cost.by_market, [{ market: 'TR', category: 'marketing', billable_count: 5, price: null, cost: null }]);
  assert.equal(cost.complete, false);
  assert.equal(cost.unknown_price_count, 5);
  assert.equal(cost.estimated_cost, 0);
});

test('cost sums count × price per market and category, exactly, with unknown markets apart', () => {
  const parsed = card([{ market: 'AR', category: 'marketing', price: 0.0618 }, { market: 'BR', category: 'utility', price: 0.0068 }]);
  assert.ok(parsed.ok);
  const cost = costOf(parsed.card, [
    { market: 'AR', category: 'marketing', count: 3 }, { market: 'BR', category: 'utility', count: 10 },
    { market: 'AR', category: 'marketing', count: 1 }, { market: null, category: 'marketing', count: 2 },
  ]);
  assert.equal(cost.estimated_cost, 0.3152);
  assert.equal(cost.billable_count, 16);
  assert.equal(cost.unknown_price_count, 2);
  assert.deepEqual(cost.by_market.map((l) => [l.market, l.billable_count, l.cost]), [['AR', 4, 0.2472], ['BR', 10, 0.068], [null, 2, null]]);
  assert.equal(cost.rate_card_source, 'company');
  assert.match(cost.note, /not an invoice/);
});

test('a valid company card parses with null as an unknown figure', () => {
  const r = card([{ market: 'AR', category: 'marketing', price: null, source: 'our contract' }]);
  assert.ok(r.ok);
  assert.deepEqual(r.card.rates, [{ market: 'AR', category: 'marketing', price: null, source: 'our contract' }]);
});
test('a negative price is RATE_CARD_INVALID on its field', () => {
  assert.deepEqual(fields(card([{ market: 'AR', category: 'marketing', price: 0.1 }, { market: 'AR', category: 'utility', price: -0.01 }])), ['RATE_CARD_INVALID rates[1].price']);
});
test('an unknown category, a malformed market and a price with 7 decimals each name their field', () => {
  assert.deepEqual(fields(card([{ market: 'AR', category: 'promo', price: 0.1 }])), ['RATE_CARD_INVALID rates[0].category']);
  assert.deepEqual(fields(card([{ market: 'Arg', category: 'marketing', price: 0.1 }])), ['RATE_CARD_INVALID rates[0].market']);
  assert.deepEqual(fields(card([{ market: 'AR', category: 'marketing', price: 0.1234567 }])), ['RATE_CARD_INVALID rates[0].price']);
  assert.deepEqual(fields(card([{ market: 'AR', category: 'marketing', price: '0.1' }])), ['RATE_CARD_INVALID rates[0].price']);
});
test('currency, date and a twice-given figure are checked', () => {
  assert.deepEqual(fields(card([], { currency: 'usd' })), ['RATE_CARD_INVALID currency']);
  assert.deepEqual(fields(card([], { effective_date: '2026-02-30' })), ['RATE_CARD_INVALID effective_date']);
  assert.deepEqual(fields(parseRateCard({ currency: 'USD', effective_date: '2026-10-01' })), ['RATE_CARD_INVALID rates']);
  assert.deepEqual(fields(card([{ market: 'AR', category: 'marketing', price: 0.1 }, { market: 'AR', category: 'marketing', price: 0.2 }])), ['RATE_CARD_INVALID rates[1].category']);
});

test('the pricing category of a send follows the template, marketing_lite through the marketing endpoint', () => {
  assert.equal(pricingCategoryOf('MARKETING', false), 'marketing');
  assert.equal(pricingCategoryOf('MARKETING', true), 'marketing_lite');
  assert.equal(pricingCategoryOf('UTILITY', true), 'utility');
});

test('a status pricing object: type decides billability when present, else billable', () => {
  assert.deepEqual(parsePricing({ billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' }),
    { category: 'marketing', type: 'regular', billable: true, pricing_model: 'PMP' });
  assert.equal(parsePricing({ billable: true, pricing_model: 'PMP', type: 'free_customer_service', category: 'utility' })?.billable, false);
  assert.deepEqual(parsePricing({ billable: true, pricing_model: 'PMP', category: 'marketing_lite' }),
    { category: 'marketing_lite', type: null, billable: true, pricing_model: 'PMP' });
  assert.equal(parsePricing({ billable: true }), null);
  assert.equal(parsePricing(undefined), null);
});
