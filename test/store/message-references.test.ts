import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { deleteBulkSend, deleteBulkSendRows, insertBulkSend } from '../../src/store/bulk-sends.js';
import { BULK_ROW_COLUMNS, copyBulkSendRows, copyField, insertMessages, type NewMessage } from '../../src/store/message-inserts.js';
import type { Database } from '../../src/store/schema.js';
import { createTestStore, onPostgres } from '../support/db.js';

// The references of `messages` (company, channel, bulk send) are checked by triggers once per statement (migration
// 0032) in place of foreign keys checked per row: a message never names a missing parent, and a parent still named
// by a message is never deleted.
let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
const channelId = '100000000000801';
/** A channel with single sends only (no bulk send, template or lease refers to it). */
const lonelyChannelId = '100000000000802';
let n = 0;

before(async () => {
  store = await createTestStore();
  companyId = (await createCompany(store.db, 'Referencing')).companyId;
  const secrets = createSecretBox('0'.repeat(64));
  await addChannel(store.db, { companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, secrets);
  await addChannel(store.db, { companyId, phoneNumberId: lonelyChannelId, wabaId: '1', accessToken: 't' }, secrets);
});
after(() => store.cleanup());

const newBulkSend = (id: string) =>
  insertBulkSend(store.db, { id, company_id: companyId, channel_id: channelId, template_id: 't1', template_name: 't', from_number: '+1', has_button: false, total_time: 0 });

const message = (over: Partial<NewMessage> = {}): NewMessage => ({
  id: `m${(n += 1)}`, company_id: companyId, channel_id: channelId, template_id: 't1', waba_id: '1', send_wizard_id: null,
  row_no: null, phone_number: `+1555${n}`, full_name: null, status: 'QUEUED', payload: { to: 'x' }, due_at: new Date(), ...over,
});

/** `count` rows of bulk send `wizard` as COPY lines (the fields of BULK_ROW_COLUMNS), with these overrides. */
async function* copyLines(wizard: string, count: number, over: Partial<Record<(typeof BULK_ROW_COLUMNS)[number], string>> = {}) {
  const base = (i: number): Record<(typeof BULK_ROW_COLUMNS)[number], string | number | null> => ({
    id: `c${(n += 1)}`, row_no: i, due_at: new Date().toISOString(), company_id: companyId, channel_id: channelId,
    template_id: 't1', waba_id: '1', send_wizard_id: wizard, status: 'NONE', row_ref: null, phone_number: `+1666${i}`,
    user_id: null, full_name: null, payload: '{"to":"x"}',
  });
  const lines: string[] = [];
  for (let i = 1; i <= count; i += 1) {
    const row = { ...base(i), ...(i === count ? over : {}) };
    lines.push(`${BULK_ROW_COLUMNS.map((c) => copyField(row[c])).join('\t')}\n`);
  }
  yield lines.join('');
}

/** The SQLSTATE the promise fails with (undefined when it succeeds). */
const sqlState = (work: Promise<unknown>) => work.then(() => undefined, (error: { code?: string }) => error.code ?? String(error));

const countOf = async (db: Kysely<Database>, where: string) =>
  Number((await sql<{ n: string }>`select count(*) as n from messages where ${sql.raw(where)}`.execute(db)).rows[0].n);

test('a message naming an unknown company, channel or bulk send is refused with 23503 and nothing is stored', async () => {
  await newBulkSend('w-insert');
  const before = await countOf(store.db, 'true');
  for (const over of [{ company_id: 'nope' }, { channel_id: '999' }, { send_wizard_id: 'nope', row_no: 1 }]) {
    assert.equal(await sqlState(insertMessages(store.db, [message(), message(over), message()])), '23503', JSON.stringify(over));
  }
  assert.equal(await countOf(store.db, 'true'), before);
  await insertMessages(store.db, [message(), message({ send_wizard_id: 'w-insert', row_no: 1 })]);
  assert.equal(await countOf(store.db, 'true'), before + 2);
});

test('a COPY of bulk-send rows with an unknown parent is refused with 23503 and stores none; a valid COPY passes', async () => {
  await newBulkSend('w-copy');
  for (const over of [{ company_id: 'nope' }, { channel_id: '999' }, { send_wizard_id: 'nope' }]) {
    assert.equal(await sqlState(copyBulkSendRows(store.db, copyLines('w-copy', 50, over))), '23503', JSON.stringify(over));
  }
  assert.equal(await countOf(store.db, "send_wizard_id = 'w-copy'"), 0);
  await copyBulkSendRows(store.db, copyLines('w-copy', 50));
  assert.equal(await countOf(store.db, "send_wizard_id = 'w-copy'"), 50);
});

test('the references are checked once per statement, not once per row', async () => {
  await newBulkSend('w-once');
  // EXPLAIN ANALYZE lists each trigger with its calls; a foreign key shows one call per stored row.
  let triggers: Array<{ 'Trigger Name': string; Calls: number }> = [];
  await store.db.transaction().execute(async (tx) => {
    const plan = await sql<{ 'QUERY PLAN': unknown }>`
      explain (analyze, format json)
      insert into messages (id, company_id, channel_id, template_id, waba_id, send_wizard_id, row_no, phone_number, status, payload)
      select 'once' || g, ${companyId}, ${channelId}, 't1', '1', 'w-once', g, '+1777' || g, 'NONE', '{}'::jsonb
      from generate_series(1, 200) g`.execute(tx);
    const raw = plan.rows[0]['QUERY PLAN'];
    triggers = (typeof raw === 'string' ? JSON.parse(raw) : raw)[0].Triggers;
    throw new Error('rolled back');
  }).catch((error: Error) => assert.equal(error.message, 'rolled back'));
  assert.ok(triggers.some((t) => t['Trigger Name'] === 'messages_references' && t.Calls === 1), JSON.stringify(triggers));
  for (const t of triggers) assert.equal(t.Calls, 1, `${t['Trigger Name']} runs once for the statement`);
});

test('changing a message\'s company, channel or bulk send to an unknown one is refused with 23503', async () => {
  const m = message();
  await insertMessages(store.db, [m]);
  for (const set of ["company_id = 'nope'", "channel_id = '999'", "send_wizard_id = 'nope'"]) {
    assert.equal(await sqlState(sql`update messages set ${sql.raw(set)} where id = ${m.id}`.execute(store.db)), '23503', set);
  }
  await sql`update messages set channel_id = ${lonelyChannelId} where id = ${m.id}`.execute(store.db);
  await sql`update messages set channel_id = ${channelId} where id = ${m.id}`.execute(store.db);
});

test('a bulk send with stored rows cannot be deleted; after its rows it can', async () => {
  await newBulkSend('w-delete');
  await copyBulkSendRows(store.db, copyLines('w-delete', 20));
  assert.equal(await sqlState(deleteBulkSend(store.db, 'w-delete')), '23503');
  assert.equal(await sqlState(sql`update send_wizards set id = 'w-moved' where id = 'w-delete'`.execute(store.db)), '23503');
  assert.equal(await countOf(store.db, "send_wizard_id = 'w-delete'"), 20);
  await deleteBulkSendRows(store.db, 'w-delete');
  await deleteBulkSend(store.db, 'w-delete');
  assert.equal((await sql`select 1 from send_wizards where id = 'w-delete'`.execute(store.db)).rows.length, 0);
});

test('a channel or a company that messages name cannot be deleted, renamed or truncated away', async () => {
  const m = message({ channel_id: lonelyChannelId });
  await insertMessages(store.db, [m]);
  assert.equal(await sqlState(sql`delete from channels where id = ${lonelyChannelId}`.execute(store.db)), '23503');
  assert.equal(await sqlState(sql`update channels set id = '999' where id = ${lonelyChannelId}`.execute(store.db)), '23503');
  assert.equal(await sqlState(sql`update companies set id = 'moved' where id = ${companyId}`.execute(store.db)), '23503');
  assert.equal(await sqlState(sql`truncate channels cascade`.execute(store.db)), '23503');
  assert.equal(await countOf(store.db, `channel_id = '${lonelyChannelId}'`), 1);
  await sql`delete from messages where id = ${m.id}`.execute(store.db);
  // Its last message gone, the channel may go (nothing else refers to it).
  await sql`delete from channels where id = ${lonelyChannelId}`.execute(store.db);
});

test('a parent is deleted at READ COMMITTED only: another level could not see concurrently committed messages', async () => {
  await newBulkSend('w-level');
  const state = await sqlState(store.db.transaction().setIsolationLevel('repeatable read').execute(async (tx) => {
    await sql`delete from send_wizards where id = 'w-level'`.execute(tx);
  }));
  assert.equal(state, '0A000');
  await deleteBulkSend(store.db, 'w-level');
});

/** Resolves once some backend waits for a lock (the other transaction's statement is blocked). */
async function someoneWaitsForALock(): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const waiting = await sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(store.db);
    if (waiting.rows.length > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no statement waited for a lock');
}

// PostgreSQL only: PGlite has one connection, so no two transactions overlap.
if (onPostgres) test('a bulk send deleted while a transaction stores its rows waits for it, then is refused', async () => {
  await newBulkSend('w-race-1');
  let commit!: () => void;
  const committed = new Promise<void>((r) => (commit = r));
  let stored!: () => void;
  const rowsIn = new Promise<void>((r) => (stored = r));
  const storing = store.db.transaction().execute(async (tx) => {
    await insertMessages(tx, [message({ send_wizard_id: 'w-race-1', row_no: 1 })]);
    stored();
    await committed;
  });
  let deleting: Promise<string | undefined>;
  try {
    await rowsIn;
    deleting = sqlState(deleteBulkSend(store.db, 'w-race-1'));
    await someoneWaitsForALock();
  } finally {
    commit(); // a failed wait must not leave the transaction open (the file would hang)
    await storing;
  }
  assert.equal(await deleting, '23503');
  assert.equal(await countOf(store.db, "send_wizard_id = 'w-race-1'"), 1);
});

if (onPostgres) test('rows stored while their bulk send is being deleted wait for it, then are refused', async () => {
  await newBulkSend('w-race-2');
  let commit!: () => void;
  const committed = new Promise<void>((r) => (commit = r));
  let deleted!: () => void;
  const rowGone = new Promise<void>((r) => (deleted = r));
  const deleting = store.db.transaction().execute(async (tx) => {
    await deleteBulkSend(tx, 'w-race-2');
    deleted();
    await committed;
  });
  let storing: Promise<string | undefined>;
  try {
    await rowGone;
    storing = sqlState(copyBulkSendRows(store.db, copyLines('w-race-2', 10)));
    await someoneWaitsForALock();
  } finally {
    commit();
    await deleting;
  }
  assert.equal(await storing, '23503');
  assert.equal(await countOf(store.db, "send_wizard_id = 'w-race-2'"), 0);
});

if (onPostgres) test('rows stored while a delete of their bulk send rolls back are stored', async () => {
  await newBulkSend('w-race-3');
  let rollBack!: () => void;
  const rolledBack = new Promise<void>((r) => (rollBack = r));
  let deleted!: () => void;
  const rowGone = new Promise<void>((r) => (deleted = r));
  const deleting = store.db.transaction().execute(async (tx) => {
    await deleteBulkSend(tx, 'w-race-3');
    deleted();
    await rolledBack;
    throw new Error('rolled back');
  });
  let storing: Promise<string | undefined>;
  try {
    await rowGone;
    storing = sqlState(copyBulkSendRows(store.db, copyLines('w-race-3', 10)));
    await someoneWaitsForALock();
  } finally {
    rollBack();
    await assert.rejects(deleting, /rolled back/);
  }
  assert.equal(await storing, undefined);
  assert.equal(await countOf(store.db, "send_wizard_id = 'w-race-3'"), 10);
});
