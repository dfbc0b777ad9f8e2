/**
 * Administrative operations: companies, tokens, channels and the demo bootstrap. Used by the CLI, by
 * server.ts and by tests, so all three create things the same way.
 */
import type { Kysely } from 'kysely';
import { AppError } from './errors.js';
import { newId } from './domain/ids.js';
import type { SecretBox } from './domain/secret-box.js';
import { generateToken, hashToken } from './domain/tokens.js';
import { channelIdTaken, insertChannel, rotateChannelToken, setChannelThroughputOverride } from './store/channels.js';
import {
  findCompany,
  insertApiToken,
  insertCompany,
  listApiTokens,
  revokeApiToken,
  tokenHashExists,
} from './store/companies.js';
import type { Database } from './store/schema.js';

type Db = Kysely<Database>;

/** Creates a company and its first token; the token is returned once and stored only as a hash. */
export async function createCompany(db: Db, name: string, id: string = newId()) {
  await insertCompany(db, { id, name });
  const token = await createToken(db, id, 'initial');
  return { companyId: id, ...token };
}

/** Creates a token for a company (or stores the given one, e.g. TMS_DEMO_TOKEN). */
export async function createToken(db: Db, companyId: string, name = '', token: string = generateToken()) {
  if (!(await findCompany(db, companyId))) throw new AppError('NOT_FOUND', `Company ${companyId} was not found.`);
  const id = newId();
  await insertApiToken(db, { id, company_id: companyId, token_hash: hashToken(token), name });
  return { tokenId: id, token };
}

/** Revokes a token by id; false when there was no live token with that id. */
export async function revokeToken(db: Db, tokenId: string): Promise<boolean> {
  return revokeApiToken(db, tokenId);
}

/** A channel to add: the network's phone number id, the WABA id and the network access token. */
export interface NewChannel {
  companyId: string;
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  throughputMps?: number;
}

/** Adds a channel to a company (the access token is stored sealed); its health is read from the network on first use. */
export async function addChannel(db: Db, channel: NewChannel, secrets: SecretBox): Promise<void> {
  if (!/^\d{1,32}$/.test(channel.phoneNumberId)) {
    throw new AppError('VALIDATION_FAILED', 'The phone number id is the network id: digits only.', { field: 'phone_number_id' });
  }
  if (!/^\d{1,32}$/.test(channel.wabaId)) {
    throw new AppError('VALIDATION_FAILED', 'The WABA id is the network id: digits only.', { field: 'waba_id' });
  }
  if (!channel.accessToken.trim()) {
    throw new AppError('VALIDATION_FAILED', 'The access token is required.', { field: 'access_token' });
  }
  if (!(await findCompany(db, channel.companyId))) throw new AppError('NOT_FOUND', `Company ${channel.companyId} was not found.`);
  if (await channelIdTaken(db, channel.phoneNumberId)) throw new AppError('CHANNEL_EXISTS');
  await insertChannel(db, {
    id: channel.phoneNumberId,
    company_id: channel.companyId,
    waba_id: channel.wabaId,
    access_token: secrets.seal(channel.accessToken),
    throughput_override_mps: channel.throughputMps ?? null,
  });
}

/** A change to a company's channel: a new network access token and/or the throughput (`auto` = the network's level). */
export interface ChannelUpdate {
  companyId: string;
  phoneNumberId: string;
  accessToken?: string;
  throughputMps?: number | 'auto';
}

/**
 * Updates a channel. A new token is stored sealed and clears the channel-level failure mark, so the channel is
 * read from the network again and its paused bulk sends resume by themselves once the dispatcher sees it healthy.
 */
export async function updateChannel(db: Db, update: ChannelUpdate, secrets: SecretBox): Promise<{ tokenRotated: boolean; throughput?: number | 'auto' }> {
  if (update.accessToken === undefined && update.throughputMps === undefined) {
    throw new AppError('VALIDATION_FAILED', 'Nothing to update: give a new access token and/or a throughput.');
  }
  if (update.accessToken !== undefined && !update.accessToken.trim()) {
    throw new AppError('VALIDATION_FAILED', 'The access token is empty.', { field: 'access_token' });
  }
  const mps = update.throughputMps;
  if (mps !== undefined && mps !== 'auto' && !(Number.isInteger(mps) && mps >= 1 && mps <= 1000)) {
    throw new AppError('VALIDATION_FAILED', 'The throughput is an integer 1-1000 or auto.', { field: 'throughput' });
  }
  const missing = () => new AppError('CHANNEL_NOT_FOUND', `Channel ${update.phoneNumberId} of company ${update.companyId} was not found.`);
  return db.transaction().execute(async (tx) => {
    if (mps !== undefined && !(await setChannelThroughputOverride(tx, update.companyId, update.phoneNumberId, mps === 'auto' ? null : mps))) {
      throw missing();
    }
    if (update.accessToken !== undefined) {
      if (!(await rotateChannelToken(tx, update.companyId, update.phoneNumberId, secrets.seal(update.accessToken.trim())))) throw missing();
    }
    return { tokenRotated: update.accessToken !== undefined, ...(mps !== undefined ? { throughput: mps } : {}) };
  });
}

/** The demo company's fixed id (hex of "demo" then 1), so every start finds the same company. */
export const DEMO_COMPANY_ID = '64656d6f0000000000000001';
const DEMO_START_TOKEN_NAME = 'demo (printed at start)';

/**
 * Creates the demo company and its channels if missing. With a fixed token (TMS_DEMO_TOKEN) that exact
 * token is ensured; otherwise a fresh token is made for this start and the previous start's is revoked,
 * so the printed token always works and only one such token is live.
 */
export async function ensureDemo(
  db: Db,
  options: { token?: string; channels: Array<Omit<NewChannel, 'companyId'>>; secrets: SecretBox },
): Promise<{ companyId: string; token: string }> {
  if (!(await findCompany(db, DEMO_COMPANY_ID))) await insertCompany(db, { id: DEMO_COMPANY_ID, name: 'Demo Company' });
  for (const channel of options.channels) {
    if (!(await channelIdTaken(db, channel.phoneNumberId))) await addChannel(db, { ...channel, companyId: DEMO_COMPANY_ID }, options.secrets);
  }
  if (options.token) {
    if (!(await tokenHashExists(db, hashToken(options.token)))) await createToken(db, DEMO_COMPANY_ID, 'TMS_DEMO_TOKEN', options.token);
    return { companyId: DEMO_COMPANY_ID, token: options.token };
  }
  for (const old of await listApiTokens(db, DEMO_COMPANY_ID)) {
    if (old.name === DEMO_START_TOKEN_NAME && !old.revoked_at) await revokeApiToken(db, old.id);
  }
  const { token } = await createToken(db, DEMO_COMPANY_ID, DEMO_START_TOKEN_NAME);
  return { companyId: DEMO_COMPANY_ID, token };
}
