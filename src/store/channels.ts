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
  throughput_level?: string | null;
  /** The rate of `throughput_level`. */
  throughput_mps?: number;
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

/**
 * Stores what the network said of a channel's health; `refreshed` marks a full read from the network. With
 * `onlyIfRead` the row is updated only while it is still marked read (`refreshed_at` set): a quality event or a
 * token rotation clears that mark, and a read that began before it must not overwrite what it applied. Returns
 * whether the row was updated.
 */
export async function updateChannelHealth(
  db: Db,
  channelId: string,
  update: ChannelHealthUpdate,
  refreshed: boolean,
  onlyIfRead = false,
): Promise<boolean> {
  const now = new Date();
  let query = db
    .updateTable('channels')
    .set({ ...update, updated_at: now, ...(refreshed ? { refreshed_at: now } : {}) })
    .where('id', '=', channelId);
  if (onlyIfRead) query = query.where('refreshed_at', 'is not', null);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
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

/** Records a channel-level failure (paused_reason text) and when the channel may be tried again; counts it. */
export async function markChannelAuthFailed(db: Db, channelId: string, reason: string, retryAt: Date): Promise<void> {
  const now = new Date();
  await db
    .updateTable('channels')
    .set((eb) => ({
      auth_error: reason,
      auth_failed_at: now,
      auth_retry_at: retryAt,
      auth_failures: eb('auth_failures', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', channelId)
    .execute();
}

/** The network answered the channel again: the failure mark goes (the failure count stays until a send succeeds). */
export async function clearChannelAuthFailure(db: Db, channelId: string): Promise<void> {
  await db
    .updateTable('channels')
    .set({ auth_error: null, auth_failed_at: null, auth_retry_at: null, updated_at: new Date() })
    .where('id', '=', channelId)
    .where('auth_error', 'is not', null)
    .execute();
}

/** A send went through: the consecutive-failure count restarts. */
export async function resetChannelAuthFailures(db: Db, channelId: string): Promise<void> {
  await db.updateTable('channels').set({ auth_failures: 0 }).where('id', '=', channelId).where('auth_failures', '>', 0).execute();
}

/**
 * Rotates a company's channel token (`stored` is the sealed value): the failure mark and count go and the
 * channel is re-read from the network on next use. False when the company has no such channel.
 */
export async function rotateChannelToken(db: Db, companyId: string, channelId: string, stored: string): Promise<boolean> {
  const result = await db
    .updateTable('channels')
    .set({
      access_token: stored,
      auth_error: null,
      auth_failed_at: null,
      auth_retry_at: null,
      auth_failures: 0,
      refreshed_at: null,
      updated_at: new Date(),
    })
    .where('company_id', '=', companyId)
    .where('id', '=', channelId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Sets (a number) or clears (null: follow the network's level) a company's channel throughput override. */
export async function setChannelThroughputOverride(db: Db, companyId: string, channelId: string, mps: number | null): Promise<boolean> {
  const result = await db
    .updateTable('channels')
    .set({ throughput_override_mps: mps, updated_at: new Date() })
    .where('company_id', '=', companyId)
    .where('id', '=', channelId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Turns a company's channel's Marketing Messages setting on or off by the user (clears a reason the service gave). */
export async function setChannelMarketingMessages(db: Db, companyId: string, channelId: string, enabled: boolean): Promise<ChannelRow | undefined> {
  return db
    .updateTable('channels')
    .set({ marketing_messages_enabled: enabled, marketing_messages_disabled_reason: null, marketing_messages_disabled_at: null, updated_at: new Date() })
    .where('company_id', '=', companyId)
    .where('id', '=', channelId)
    .returningAll()
    .executeTakeFirst();
}

/** The service switches the setting off with its reason; true when this call did (it was on). */
export async function switchOffMarketingMessages(db: Db, channelId: string, reason: string): Promise<boolean> {
  const result = await db
    .updateTable('channels')
    .set({ marketing_messages_enabled: false, marketing_messages_disabled_reason: reason, marketing_messages_disabled_at: new Date(), updated_at: new Date() })
    .where('id', '=', channelId)
    .where('marketing_messages_enabled', '=', true)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
