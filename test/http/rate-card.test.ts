/** The company's rate card: the shipped one by default, replaced whole by PUT, refused with the field when bad, reset by DELETE. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});
after(() => h.close());

const card = (rates: unknown[], extra: Record<string, unknown> = {}) => ({ currency: 'EUR', effective_date: '2026-10-01', rates, ...extra });
const getCard = async (token = h.a.token) => (await h.call('GET', '/api/v1/rate-card', { token })).body.data;

test('by default the shipped card: USD, its effective date, and a public source for every priced figure', async () => {
  const data = await getCard();
  assert.equal(data.source, 'default');
  assert.equal(data.currency, 'USD');
  assert.match(data.effective_date, /^\d{4}-\d{2}-\d{2}$/);
  assert.match(data.note, /not an invoice/);
  for (const r of data.rates.filter((x: { price: number | null }) => x.price !== null)) assert.match(r.source, /^https:\/\//);
});

test('PUT replaces the card as a whole; DELETE goes back to the shipped one', async () => {
  const put = await h.call('PUT', '/api/v1/rate-card', { body: card([{ market: 'DE', category: 'marketing', price: 0.1131, source: 'contract' }], { note: 'ours' }) });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const data = await getCard();
  assert.equal(data.source, 'company');
  assert.equal(data.currency, 'EUR');
  assert.deepEqual(data.rates, [{ market: 'DE', category: 'marketing', price: 0.1131, source: 'contract' }]);
  const del = await h.call('DELETE', '/api/v1/rate-card');
  assert.equal(del.status, 200);
  assert.equal((await getCard()).source, 'default');
});

test('a negative price is 400 RATE_CARD_INVALID naming rates[i].price, and nothing is written', async () => {
  await h.call('PUT', '/api/v1/rate-card', { body: card([{ market: 'DE', category: 'marketing', price: 0.1 }]) });
  const res = await h.call('PUT', '/api/v1/rate-card', { body: card([{ market: 'FR', category: 'marketing', price: 0.07 }, { market: 'FR', category: 'utility', price: -0.01 }]) });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'RATE_CARD_INVALID');
  assert.equal(res.body.errors[0].field, 'rates[1].price');
  assert.deepEqual((await getCard()).rates.map((r: { market: string }) => r.market), ['DE']);
});

test('an unknown category, a malformed market and a bad currency are 400 naming each field', async () => {
  for (const [body, field] of [
    [card([{ market: 'FR', category: 'promotional', price: 0.07 }]), 'rates[0].category'],
    [card([{ market: 'France', category: 'marketing', price: 0.07 }]), 'rates[0].market'],
    [card([], { currency: 'euro' }), 'currency'],
    [{ currency: 'EUR', effective_date: '2026-10-01' }, 'rates'],
  ] as const) {
    const res = await h.call('PUT', '/api/v1/rate-card', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.errors[0].code, 'RATE_CARD_INVALID');
    assert.equal(res.body.errors[0].field, field);
  }
});

test("another company's card is its own", async () => {
  await h.call('PUT', '/api/v1/rate-card', { body: card([{ market: 'DE', category: 'marketing', price: 0.1 }]) });
  assert.equal((await getCard(h.b.token)).source, 'default');
});
