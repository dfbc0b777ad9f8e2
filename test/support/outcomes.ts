/** Fixtures of the outcome-writer tests: a company with a channel and a RUNNING bulk send, and attempted messages. */
import { sql, type Kysely } from 'kysely';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import type { Database } from '../../src/store/schema.js';

/** Creates the company, its channel and a RUNNING bulk send `sendWizardId` on it; returns the company's id. */
export async function bulkSendOnChannel(db: Kysely<Database>, name: string, channelId: string, sendWizardId: string): Promise<string> {
  const { companyId } = await createCompany(db, name);
  await addChannel(db, { companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, createSecretBox('0'.repeat(64)));
  await sql`
    insert into send_wizards (id, company_id, channel_id, template_id, template_name, from_number, has_button, status, total_time)
    values (${sendWizardId}, ${companyId}, ${channelId}, 't1', 'n', '1', false, 'RUNNING', 0)`.execute(db);
  return companyId;
}

/** Stores a message attempted by `owner` and waiting for its outcome (OPT_IN_SUCCESS, leased, attempt recorded). */
export async function attemptedMessage(
  db: Kysely<Database>,
  m: { id: string; companyId: string; channelId: string; owner: string; phone: string; sendWizardId: string | null; rowNo: number | null },
): Promise<string> {
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload, due_at,
                          send_attempted_at, attempts, lease_owner, lease_until, send_wizard_id, row_no)
    values (${m.id}, ${m.companyId}, ${m.channelId}, 't1', '1', ${m.phone}, 'OPT_IN_SUCCESS', '{"to":"x"}'::jsonb, now(),
            now(), 1, ${m.owner}, now() + interval '30 seconds', ${m.sendWizardId}, ${m.rowNo})`.execute(db);
  return m.id;
}
