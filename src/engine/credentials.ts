/**
 * Channel credentials from a stored row: the access token is sealed at rest (AES-256-GCM, TMS_SECRET_KEY) and
 * opened only here, right before a network call. Also the migrate step that seals rows stored in plaintext.
 */
import type { Kysely } from 'kysely';
import { isSealed, type SecretBox } from '../domain/secret-box.js';
import type { ChannelCredentials } from '../network/port.js';
import { listUnsealedChannelTokens, replaceChannelToken, type ChannelRow } from '../store/channels.js';
import type { Database } from '../store/schema.js';

/** The network credentials of a stored channel (opens the sealed token). */
export function credentialsOf(channel: Pick<ChannelRow, 'id' | 'waba_id' | 'access_token'>, secrets: SecretBox): ChannelCredentials {
  return { phoneNumberId: channel.id, wabaId: channel.waba_id, accessToken: secrets.open(channel.access_token) };
}

/**
 * Seals every channel token still stored in plaintext (rows from before sealing). Idempotent: sealed rows are
 * left alone; run by `tms migrate` and at service start, after the SQL migrations. Returns how many were sealed.
 */
export async function sealStoredTokens(db: Kysely<Database>, secrets: SecretBox): Promise<number> {
  let sealed = 0;
  for (const row of await listUnsealedChannelTokens(db)) {
    if (isSealed(row.access_token)) continue;
    if (await replaceChannelToken(db, row.id, row.access_token, secrets.seal(row.access_token))) sealed += 1;
  }
  return sealed;
}
