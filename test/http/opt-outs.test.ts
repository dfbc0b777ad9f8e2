/**
 * The opt-out list over HTTP (beyond the interface): add, list (paging, search), remove, CSV import
 * (text/csv and multipart, a bad line reported with its line number while good lines are stored), keywords, company
 * scoping, and bad input answered 4xx with nothing written.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const B = '/api/v1/opt-outs';
const count = async (companyId: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from opt_outs where company_id = ${companyId}`.execute(h.store.db)).rows[0].n;

function csv(text: string, token = h.a.token) {
  return h.call('POST', `${B}/import`, { token, body: text, headers: { 'content-type': 'text/csv' } });
}

test('add stores the number in E.164 with source api; adding it again answers its first entry, created false', async () => {
  const first = await h.call('POST', B, { body: { phone_number: '0090 555 810-0013', reason: 'asked by phone' } });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.success, true);
  assert.equal(first.body.data.created, true);
  assert.deepEqual(
    { ...first.body.data.opt_out, created_at: typeof first.body.data.opt_out.created_at },
    { phone_number: '+905558100013', user_id: null, source: 'api', applies_to: 'all', keyword: null, reason: 'asked by phone', channel_id: null, created_at: 'string' },
  );
  const again = await h.call('POST', B, { body: { phone_number: '+905558100013' } });
  assert.equal(again.status, 200);
  assert.equal(again.body.data.created, false);
  assert.equal(again.body.data.opt_out.reason, 'asked by phone');
});

test('a bad number is 400 VALIDATION_FAILED on phone_number and writes nothing', async () => {
  const before = await count(h.a.companyId);
  for (const body of [{ phone_number: '12ab' }, { phone_number: '0123' }, {}, { phone_number: '905558100099', extra: 1 }]) {
    const res = await h.call('POST', B, { body });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'VALIDATION_FAILED');
  }
  assert.equal(await count(h.a.companyId), before);
});

test('list pages newest first with a total, and searches by digits', async () => {
  for (const n of ['905558200013', '905558200023', '905558200033']) {
    assert.equal((await h.call('POST', B, { body: { phone_number: n } })).status, 200);
  }
  const page1 = await h.call('GET', `${B}?page=1&page_size=2&phone_number=58200`);
  assert.equal(page1.status, 200, JSON.stringify(page1.body));
  assert.deepEqual(page1.body.pagination, { page: 1, page_size: 2, total: 3 });
  assert.deepEqual(page1.body.items.map((i: { phone_number: string }) => i.phone_number), ['+905558200033', '+905558200023']);
  const page2 = await h.call('GET', `${B}?page=2&page_size=2&phone_number=%2B905558200`);
  assert.deepEqual(page2.body.items.map((i: { phone_number: string }) => i.phone_number), ['+905558200013']);
  for (const q of ['page=0', 'page_size=501', 'page_size=x', 'phone_number=abc', 'other=1']) {
    const bad = await h.call('GET', `${B}?${q}`);
    assert.equal(bad.status, 400, `${q}: ${JSON.stringify(bad.body)}`);
  }
});

test('remove deletes the entry (with or without +); a number not on the list is 404', async () => {
  assert.equal((await h.call('POST', B, { body: { phone_number: '905558300013' } })).status, 200);
  const del = await h.call('DELETE', `${B}/%2B905558300013`);
  assert.equal(del.status, 200, JSON.stringify(del.body));
  assert.deepEqual(del.body.errors, []);
  const again = await h.call('DELETE', `${B}/905558300013`);
  assert.equal(again.status, 404);
  assert.equal(again.body.errors[0].code, 'NOT_FOUND');
  assert.equal((await h.call('DELETE', `${B}/not-a-number`)).status, 400);
});

test('import (text/csv): good lines stored, a bad line reported with its line number, repeats counted', async () => {
  const file = 'Phone_Number,name,reason\n905558400013,Ayse,asked\n12ab,Ali,\n\n"+90 555 840 0023",Veli,"said ""no"", twice"\n905558400013,Ayse,again\n,Empty,\n';
  const res = await csv(file);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body.data, {
    lines: 5,
    added: 2,
    already_listed: 1,
    invalid: 2,
    errors: [
      { line: 3, message: 'phone_number "12ab": a phone number is digits with the country code, optionally with a leading +' },
      { line: 7, message: 'phone_number is empty' },
    ],
  });
  const listed = await h.call('GET', `${B}?phone_number=5558400023`);
  assert.equal(listed.body.items[0].source, 'import');
  assert.equal(listed.body.items[0].reason, 'said "no", twice');
});

test('import (multipart file part) stores the file the same way', async () => {
  const boundary = 'optoutboundary42';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="optouts.csv"\r\nContent-Type: text/csv\r\n\r\nphone_number\r\n905558500013\r\n905558500023\r\n--${boundary}--\r\n`;
  const res = await h.call('POST', `${B}/import`, { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.added, 2);
  const field = `--${boundary}\r\nContent-Disposition: form-data; name="channel_id"\r\n\r\nx\r\n--${boundary}--\r\n`;
  const wrong = await h.call('POST', `${B}/import`, { body: field, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  assert.equal(wrong.status, 400, JSON.stringify(wrong.body));
  assert.equal(wrong.body.errors[0].field, 'channel_id');
});

test('a semicolon- or tab-separated file (as spreadsheets export it) imports the same way', async () => {
  const semi = await csv('reason;Phone_Number\nvia store;905558550013\n"a; b";905558550023\n');
  assert.equal(semi.status, 200, JSON.stringify(semi.body));
  assert.equal(semi.body.data.added, 2);
  assert.equal((await h.call('GET', `${B}?phone_number=5558550023`)).body.items[0].reason, 'a; b');
  const tab = await csv('phone_number\treason\n905558550033\tx, y\n');
  assert.equal(tab.body.data.added, 1);
});

test('an import that is not valid CSV, has no phone_number header or is not CSV is refused whole: nothing written', async () => {
  const before = await count(h.a.companyId);
  const unclosed = await csv('phone_number\n905558600013\n"905558600023\n905558600033\n');
  assert.equal(unclosed.status, 400, JSON.stringify(unclosed.body));
  assert.equal(unclosed.body.errors[0].field, 'file');
  assert.match(unclosed.body.message, /line 3/);
  const noHeader = await csv('905558600043\n905558600053\n');
  assert.equal(noHeader.status, 400);
  assert.equal((await csv('')).status, 400);
  const json = await h.call('POST', `${B}/import`, { body: { phone_number: '905558600063' } });
  assert.equal(json.status, 415, JSON.stringify(json.body));
  assert.equal(await count(h.a.companyId), before);
});

test("company scoping: B never sees A's list, cannot remove A's entry, and keeps its own", async () => {
  assert.equal((await h.call('POST', B, { body: { phone_number: '905558700013' } })).status, 200);
  const list = await h.call('GET', B, { token: h.b.token });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.items, []);
  assert.equal(list.body.pagination.total, 0);
  assert.equal((await h.call('DELETE', `${B}/905558700013`, { token: h.b.token })).status, 404);
  const own = await h.call('POST', B, { token: h.b.token, body: { phone_number: '905558700013' } });
  assert.equal(own.body.data.created, true, "B's entry is its own, not A's");
  assert.equal((await csv('phone_number\n905558700023\n', h.b.token)).body.data.added, 1);
  assert.equal((await h.call('GET', `${B}?phone_number=5558700023`)).body.pagination.total, 0, "B's import is not on A's list");
  assert.equal((await h.call('GET', B, { token: null })).status, 401);
});

test('keywords: defaults until set; bad lists are 400 naming keywords[i] and change nothing; [] turns them off', async () => {
  const defaults = await h.call('GET', `${B}/keywords`, { token: h.b.token });
  assert.equal(defaults.status, 200);
  assert.equal(defaults.body.data.is_default, true);
  assert.ok(defaults.body.data.keywords.includes('STOP'));
  for (const [keywords, field] of [[['STOP', ' stop '], 'keywords[1]'], [['OK', '   '], 'keywords[1]'], [['X'.repeat(65)], 'keywords[0]']] as const) {
    const res = await h.call('PUT', `${B}/keywords`, { token: h.b.token, body: { keywords } });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].field, field);
  }
  assert.equal((await h.call('PUT', `${B}/keywords`, { token: h.b.token, body: { keywords: 'STOP' } })).status, 400);
  assert.equal((await h.call('GET', `${B}/keywords`, { token: h.b.token })).body.data.is_default, true);
  const off = await h.call('PUT', `${B}/keywords`, { token: h.b.token, body: { keywords: [] } });
  assert.deepEqual(off.body.data, { keywords: [], is_default: false });
  assert.equal((await h.call('GET', `${B}/keywords`)).body.data.is_default, true, "B's keywords are not A's");
});
