/** SQL for channels (business phone numbers). Every read is scoped to a company except webhook matching. */
import type { Insertable, Kysely, Selectable } from 'kysely';
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

/** Channels of a WABA with this display number (webhooks name the number, not its id). */
export async function findChannelsByWabaNumber(db: Db, wabaId: string, displayPhoneNumber: string): Promise<ChannelRow[]> {
  return db
    .selectFrom('channels')
    .selectAll()
    .where('waba_id', '=', wabaId)
    .where('display_phone_number', '=', displayPhoneNumber)
    .execute();
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

/** Marks a channel's cached health stale so the next read asks the network. */
export async function markChannelStale(db: Db, channelId: string): Promise<void> {
  await db.updateTable('channels').set({ refreshed_at: null }).where('id', '=', channelId).execute();
}
