/** SQL for channels (business phone numbers). Every read is scoped to a company except webhook matching. */
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { ChannelsTable, Database } from './schema.js';

type Db = Kysely<Database>;

/** A stored channel row. */
export type ChannelRow = Selectable<ChannelsTable>;

/** The health fields that the network reports. */
export interface ChannelHealthUpdate {
  display_phone_number?: string;
  verified_name?: string;
  status?: string;
  quality_rating?: string;
  messaging_limit_tier?: string | null;
}

/** Inserts a channel. */
export async function insertChannel(
  db: Db,
  channel: Insertable<ChannelsTable>,
): Promise<void> {
  await db.insertInto('channels').values(channel).execute();
}

/** A company's channel by id, or undefined (also for another company's channel). */
export async function findChannel(db: Db, companyId: string, channelId: string): Promise<ChannelRow | undefined> {
  return db
    .selectFrom('channels')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', channelId)
    .executeTakeFirst();
}

/** Whether any company has a channel with this id. */
export async function channelIdTaken(db: Db, channelId: string): Promise<boolean> {
  const row = await db.selectFrom('channels').select('id').where('id', '=', channelId).executeTakeFirst();
  return row !== undefined;
}

/** A company's channels, by id. */
export async function listChannels(db: Db, companyId: string): Promise<ChannelRow[]> {
  return db.selectFrom('channels').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
}

/** Stores what the network said of a channel's health; `refreshed` marks a full read from the network. */
export async function updateChannelHealth(
  db: Db,
  channelId: string,
  update: ChannelHealthUpdate,
  refreshed: boolean,
): Promise<void> {
  const now = new Date();
  await db
    .updateTable('channels')
    .set({ ...update, updated_at: now, ...(refreshed ? { refreshed_at: now } : {}) })
    .where('id', '=', channelId)
    .execute();
}

/** Locks the channels of a WABA whose display number has these digits (webhooks name the number). */
export async function lockChannelsByWabaNumber(db: Db, wabaId: string, digits: string): Promise<ChannelRow[]> {
  const result = await sql<ChannelRow>`
    select * from channels
    where waba_id = ${wabaId} and regexp_replace(display_phone_number, '[^0-9]', '', 'g') = ${digits}
    for update`.execute(db);
  return result.rows;
}

/** Applies a quality event's status and tier and marks the channel stale (re-read from the network next). */
export async function applyChannelQualityEvent(db: Db, channelId: string, status: string, tier: string | null): Promise<void> {
  await db
    .updateTable('channels')
    .set({ status, messaging_limit_tier: tier, refreshed_at: null, updated_at: new Date() })
    .where('id', '=', channelId)
    .execute();
}

/** A channel by id for internal work (the dispatcher); never used to answer a client. */
export async function findChannelById(db: Db, channelId: string): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', channelId).executeTakeFirst();
}

/** Channels whose stored access token is not sealed yet (no `enc:v1:` prefix), any company (the migrate step). */
export async function listUnsealedChannelTokens(db: Db): Promise<Array<{ id: string; access_token: string }>> {
  return db.selectFrom('channels').select(['id', 'access_token']).where('access_token', 'not like', 'enc:v1:%').orderBy('id').execute();
}

/** Replaces a channel's stored token only if it still is `expected` (a concurrent rotation wins); true when replaced. */
export async function replaceChannelToken(db: Db, channelId: string, expected: string, stored: string): Promise<boolean> {
  const result = await db
    .updateTable('channels')
    .set({ access_token: stored, updated_at: new Date() })
    .where('id', '=', channelId)
    .where('access_token', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
