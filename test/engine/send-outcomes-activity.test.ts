/**
 * The outcome writer tells the sending signal (which makes the webhook inbox hold status bodies) only when a flush
 * handed off messages of a bulk send: single sends' statuses are applied as they come.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pino from 'pino';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { OutcomeWriter } from '../../src/engine/send-outcomes.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
const channelId = '100000000000889';
const owner = 'instance-a';
const log = pino({ level: 'silent' });

before(async () => {
  store = await createTestStore();
  companyId = (await createCompany(store.db, 'Activity')).companyId;
  await addChannel(store.db, { companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, createSecretBox('0'.repeat(64)));
  await sql`
    insert into send_wizards (id, company_id, channel_id, template_id, template_name, from_number, has_button, status, total_time)
    values ('wiz-activity', ${companyId}, ${channelId}, 't1', 'n', '1', false, 'RUNNING', 0)`.execute(store.db);
});
after(() => store.cleanup());

/** A message attempted by `owner` and waiting for its outcome; returns its id. */
async function attempted(tag: string, sendWizardId: string | null, rowNo: number | null): Promise<string> {
  const id = `activity-${tag}`;
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload, due_at,
                          send_attempted_at, attempts, lease_owner, lease_until, send_wizard_id, row_no)
    values (${id}, ${companyId}, ${channelId}, 't1', '1', '905550001133', 'OPT_IN_SUCCESS', '{"to":"x"}'::jsonb, now(),
            now(), 1, ${owner}, now() + interval '30 seconds', ${sendWizardId}, ${rowNo})`.execute(store.db);
  return id;
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
