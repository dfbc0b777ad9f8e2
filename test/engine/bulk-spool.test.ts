import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { spoolRows } from '../../src/engine/bulk-spool.js';
import { AppError } from '../../src/errors.js';

// A start's body is cut into its fields and its rows as it streams in; chunks end anywhere (inside a string, right
// after a backslash, between a row's tokens), and each row must reach the spool file whole, as one line.
const LIMITS = { maxRows: 100, maxBytes: 1_000_000, maxFieldTokens: 50 };

async function spool(chunks: string[], limits = LIMITS) {
  const dir = mkdtempSync(join(tmpdir(), 'tms-spool-'));
  try {
    const file = join(dir, 'rows.jsonl');
    const spooled = await spoolRows(Readable.from(chunks.map((c) => Buffer.from(c))), file, limits);
    const lines = readFileSync(file, 'utf8').split('\n');
    assert.equal(lines.pop(), '', 'the file ends with a newline');
    return { fields: { ...spooled.fields }, rowCount: spooled.rowCount, rows: lines.map((l) => JSON.parse(l)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function refusal(chunks: string[], limits = LIMITS): Promise<{ code: string; field: unknown; message: string }> {
  const error = await spool(chunks, limits).then(() => assert.fail('the body was taken'), (e: unknown) => e);
  assert.ok(error instanceof AppError, String(error));
  return { code: error.code, field: (error as AppError & { field?: unknown }).field ?? (error.details as { field?: unknown } | undefined)?.field, message: error.message };
}

const BODY = JSON.stringify({
  channel_id: '1100',
  rows: [
    { id: 1, phone_number: '+905551112233', params: ['a "quoted" \\ value', 'é😀\u2028'], url_button_param: 'x\ty' },
    [7, '905551112234', null, 12.5e2, true],
    'text with \\" and \\\\',
    { nested: { deeper: [[{}], []] } },
  ],
  param_headers: ['ID', 'PHONE', 'BODY.1'],
  total_time: 0,
});

test('rows split at every position between two chunks come out whole, as JSON.parse reads them', async () => {
  const want = JSON.parse(BODY) as { rows: unknown[] };
  for (let cut = 1; cut < BODY.length; cut += 1) {
    // Never inside a surrogate pair: the client's bytes are UTF-8, whole characters.
    if (/[\ud800-\udbff]/.test(BODY[cut - 1])) continue;
    const got = await spool([BODY.slice(0, cut), BODY.slice(cut)]);
    assert.deepEqual(got.rows, want.rows, `cut at ${cut}`);
    assert.equal(got.rowCount, 4);
    assert.deepEqual(got.fields, { channel_id: '1100', rows: true, param_headers: ['ID', 'PHONE', 'BODY.1'], total_time: 0 });
  }
});

test('whitespace and newlines between tokens are read; each row stays one line of the spool', async () => {
  const got = await spool(['{ "rows" : [\n  {"a":\r\n 1} ,\n\t[ 1 ,\n 2 ]\n ] ,\n "channel_id" : "1" }\n']);
  assert.deepEqual(got.rows, [{ a: 1 }, [1, 2]]);
  assert.deepEqual(got.fields, { rows: true, channel_id: '1' });
});

test('an empty list, no rows field, a field that is not a list', async () => {
  assert.deepEqual(await spool(['{"rows":[]}']), { fields: { rows: true }, rowCount: 0, rows: [] });
  assert.deepEqual(await spool(['{}']), { fields: {}, rowCount: 0, rows: [] });
  assert.deepEqual(await spool(['{"rows":5}']), { fields: { rows: 5 }, rowCount: 0, rows: [] });
});

test('a body that is not a JSON object, or not JSON, is refused naming the body', async () => {
  for (const body of ['[]', '"x"', '1', 'null']) {
    assert.deepEqual(await refusal([body]), { code: 'VALIDATION_FAILED', field: 'body', message: 'The body must be a JSON object.' }, body);
  }
  for (const body of ['{', '{"rows":[1,]}', '{"rows":[1 2]}', '{"a":1}x', '{"a" 1}', '{"a":tru}', '{"rows":[{"a":1]}', ',']) {
    assert.equal((await refusal([body])).code, 'INVALID_JSON', body);
  }
});

test('NUL in a row, a field or a key is refused naming where it is', async () => {
  assert.deepEqual(await refusal(['{"rows":[1,{"a":"x\\u0000"}]}']), { code: 'VALIDATION_FAILED', field: 'rows[1]', message: 'rows[1] must not contain the NUL character (U+0000)' });
  assert.equal((await refusal(['{"channel_id":["\\u0000"]}'])).field, 'channel_id');
  assert.equal((await refusal(['{"\\u0000":1}'])).field, 'body');
  // An escaped backslash before u0000 is text, not NUL.
  assert.deepEqual((await spool(['{"rows":["\\\\u0000"]}'])).rows, ['\\u0000']);
});

test('limits: rows, a long field, nesting', async () => {
  assert.equal((await refusal(['{"rows":[1,2,3]}'], { ...LIMITS, maxRows: 2 })).code, 'PAYLOAD_TOO_LARGE');
  const long = `{"param_headers":[${Array.from({ length: 60 }, (_, k) => `"h${k}"`).join(',')}]}`;
  assert.deepEqual(await refusal([long]), { code: 'VALIDATION_FAILED', field: 'param_headers', message: 'param_headers is too large' });
  // A row may be as long as the body allows (the field limit is for the other fields).
  assert.equal((await spool([`{"rows":[[${Array.from({ length: 60 }, (_, k) => k).join(',')}]]}`])).rows[0].length, 60);
  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  assert.equal((await spool([`{"rows":[${deep(62)}]}`])).rowCount, 1);
  assert.equal((await refusal([`{"rows":[${deep(63)}]}`])).code, 'VALIDATION_FAILED');
});

test('a row arriving a character at a time is read in linear time, whole', async () => {
  const row = JSON.stringify({ text: 'y'.repeat(200_000) });
  const body = `{"rows":[${row}]}`;
  const chunks = Array.from({ length: Math.ceil(body.length / 1000) }, (_, k) => body.slice(k * 1000, (k + 1) * 1000));
  const t = performance.now();
  const got = await spool(chunks);
  assert.equal((got.rows[0] as { text: string }).text.length, 200_000);
  assert.ok(performance.now() - t < 30_000);
});

test('a row is kept as its text: one the scanner cuts out whole but that is not JSON is left to the start; no value at all is refused', async () => {
  // The start's first pass parses every row and answers this one INVALID_JSON (test/http/bulk-start.test.ts).
  const dir = mkdtempSync(join(tmpdir(), 'tms-spool-'));
  try {
    const file = join(dir, 'rows.jsonl');
    const spooled = await spoolRows(Readable.from([Buffer.from('{"rows":[{"a" 1},[1,2]]}')]), file, LIMITS);
    assert.equal(spooled.rowCount, 2);
    assert.equal(readFileSync(file, 'utf8'), '{"a" 1}\n[1,2]\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const body of ['{"rows":[1,,2]}', '{"rows":[,1]}']) assert.equal((await refusal([body])).code, 'INVALID_JSON', body);
});
