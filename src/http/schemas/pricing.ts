/** Schemas of what messages cost: the rate card, the cost object of reports and dry runs, a row's pricing. */
import { Type } from 'typebox';
import { LIST_PRICE_NOTE, MAX_RATE_ENTRIES, PRICING_CATEGORIES } from '../../domain/pricing/rate-card.js';

const market = Type.String({ description: 'ISO 3166-1 alpha-2 country of the recipient (from the phone number, or the BSUID prefix)', examples: ['AR'] });
const category = Type.String({ description: `pricing category: ${PRICING_CATEGORIES.join(', ')}`, examples: ['marketing'] });

/** One figure of a rate card. */
export const RateEntrySchema = Type.Object(
  {
    market,
    category,
    price: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'per delivered message, in the card currency; null = unknown' }),
    source: Type.Union([Type.String(), Type.Null()], { description: 'where the figure comes from (URL or text); null when not given' }),
  },
  { additionalProperties: false },
);

const CARD_EXAMPLE = {
  source: 'default', currency: 'USD', effective_date: '2025-07-01', note: LIST_PRICE_NOTE,
  rates: [{ market: 'AR', category: 'marketing', price: 0.0618, source: 'https://docs.sent.dm/docs/guides/whatsapp-pricing' }],
};

/** A rate card as `GET /api/v1/rate-card` answers it. */
export const RateCardSchema = Type.Object(
  {
    source: Type.Union([Type.Literal('default'), Type.Literal('company')], { description: "default: the card shipped with the service; company: the company's own" }),
    currency: Type.String({ description: 'ISO 4217', examples: ['USD'] }),
    effective_date: Type.String({ description: 'YYYY-MM-DD', examples: ['2025-07-01'] }),
    note: Type.String(),
    rates: Type.Array(RateEntrySchema),
  },
  { examples: [CARD_EXAMPLE] },
);

/** `PUT /api/v1/rate-card` body (documented; checked by the service, which names the bad field). */
export const RateCardBody = Type.Object(
  {
    currency: Type.String({ description: 'ISO 4217, three capital letters', examples: ['USD'] }),
    effective_date: Type.String({ description: 'YYYY-MM-DD', examples: ['2026-10-01'] }),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    rates: Type.Array(
      Type.Object(
        {
          market: Type.String({ pattern: '^[A-Z]{2}$' }),
          category: Type.Union(PRICING_CATEGORIES.map((c) => Type.Literal(c))),
          price: Type.Union([Type.Number({ minimum: 0, maximum: 1_000_000 }), Type.Null()], { description: 'at most 6 decimals; null = unknown' }),
          source: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
        },
        { additionalProperties: false },
      ),
      { maxItems: MAX_RATE_ENTRIES },
    ),
  },
  {
    additionalProperties: false,
    examples: [{ currency: 'USD', effective_date: '2026-10-01', rates: [{ market: 'AR', category: 'marketing', price: 0.0618, source: 'Meta rate card CSV' }] }],
  },
);

/** One line of a cost. */
export const CostLineSchema = Type.Object({
  market: Type.Union([Type.String(), Type.Null()], { description: 'null: the recipient’s country is unknown' }),
  category,
  billable_count: Type.Integer(),
  price: Type.Union([Type.Number(), Type.Null()], { description: 'null: the card has no figure (unknown, not priced)' }),
  cost: Type.Union([Type.Number(), Type.Null()]),
});

export const COST_EXAMPLE = {
  currency: 'USD', estimated_cost: 0.2472, complete: true, billable_count: 4, unknown_price_count: 0,
  by_market: [{ market: 'AR', category: 'marketing', billable_count: 4, price: 0.0618, cost: 0.2472 }],
  rate_card_effective_date: '2025-07-01', rate_card_source: 'default', note: LIST_PRICE_NOTE,
};

/** The estimated cost of billable messages (reports: after delivery; dry runs: the rows as if all delivered). */
export const CostSchema = Type.Object(
  {
    currency: Type.String(),
    estimated_cost: Type.Number({ description: 'sum of the lines with a known price' }),
    complete: Type.Boolean({ description: 'false when some billable message has no known price (unknown_price_count)' }),
    billable_count: Type.Integer(),
    unknown_price_count: Type.Integer(),
    by_market: Type.Array(CostLineSchema),
    rate_card_effective_date: Type.String(),
    rate_card_source: Type.Union([Type.Literal('default'), Type.Literal('company')]),
    note: Type.String({ description: "always: Meta's list price, not an invoice" }),
  },
  { description: "Estimated at Meta's list price from the company's rate card (GET /api/v1/rate-card); not an invoice.", examples: [COST_EXAMPLE] },
);

/** A message's pricing from its status webhooks (null until one carried it). */
export const PricingViewSchema = Type.Union(
  [
    Type.Object({
      category,
      type: Type.Union([Type.String(), Type.Null()], { description: 'regular (billed), free_customer_service, free_entry_point' }),
      billable: Type.Boolean(),
      pricing_model: Type.Union([Type.String(), Type.Null()], { description: 'PMP (per message)' }),
    }),
    Type.Null(),
  ],
  { description: "the network's pricing of the message (status webhooks); null until a status carried it" },
);
