/**
 * The outcome writer tells the sending signal (which makes the webhook inbox hold status bodies) only when a flush
 * handed off messages of a bulk send: single sends' statuses are applied as they come.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pino from 'pino';
import { OutcomeWriter } from '../../src/engine/send-outcomes.js';
import { createTestStore } from '../support/db.js';
import { attemptedMessage, bulkSendOnChannel } from '../support/outcomes.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
const channelId = '100000000000889';
const owner = 'instance-a';
const log = pino({ level: 'silent' });

before(async () => {
  store = await createTestStore();
  companyId = await bulkSendOnChannel(store.db, 'Activity', channelId, 'wiz-activity');
});
after(() => store.cleanup());

/** A message attempted by `owner` and waiting for its outcome; returns its id. */
function attempted(tag: string, sendWizardId: string | null, rowNo: number | null): Promise<string> {
  return attemptedMessage(store.db, { id: `activity-${tag}`, companyId, channelId, owner, phone: '905550001133', sendWizardId, rowNo });
}

async function handOff(id: string): Promise<number> {
  let told = 0;
  const writer = new OutcomeWriter({ db: store.db, owner, channelId, log, handedOff: () => (told += 1) });
  writer.add({ id, kind: 'sent', wamid: `wamid.${id}` }, 0);
  await writer.flush();
  const row = await sql<{ status: string }>`select status from messages where id = ${id}`.execute(store.db);
  assert.equal(row.rows[0].status, 'SENT_TO_BACKEND');
  return told;
}

test('a flush that hands off a single send does not tell the sending signal', async () => {
  assert.equal(await handOff(await attempted('single', null, null)), 0);
});

test('a flush that hands off a message of a bulk send tells the sending signal', async () => {
  assert.equal(await handOff(await attempted('bulk', 'wiz-activity', 1)), 1);
});
