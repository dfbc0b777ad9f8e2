/**
 * SQL for templates, name checks and media handles. A template belongs to the WABA of the channel it was
 * created through, so every channel of that WABA (and company) sees it. Reads take the company id.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, TemplatesTable } from './schema.js';

type Db = Kysely<Database>;

/** A stored template row. */
export type TemplateRow = Selectable<TemplatesTable>;

/** A template to insert (components and media_names as values, serialised here). */
export interface NewTemplate {
  id: string;
  company_id: string;
  channel_id: string;
  waba_id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  components: unknown;
  allow_category_change: boolean;
  media_names?: Record<string, string> | null;
  /** POSITIONAL (default) or NAMED. */
  parameter_format?: string;
}

/**
 * Inserts a template created through the service. A WABA sync may have imported it between the network's answer
 * and this insert: the row then becomes the service's (same company only).
 */
export async function insertTemplate(db: Db, t: NewTemplate): Promise<void> {
  const components = JSON.stringify(t.components);
  const mediaNames = t.media_names ? JSON.stringify(t.media_names) : null;
  await db
    .insertInto('templates')
    .values({ ...t, components, media_names: mediaNames })
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({
          source: 'service',
          components,
          media_names: mediaNames,
          allow_category_change: t.allow_category_change,
          channel_id: t.channel_id,
        })
        .where('templates.company_id', '=', t.company_id),
    )
    .execute();
}

/** A template read from the network's WABA listing, to import (`components` is the stored, normalised form). */
export interface ImportedTemplate extends Omit<NewTemplate, 'allow_category_change' | 'media_names' | 'parameter_format'> {
  rejected_reason: string | null;
  parameter_format: string;
  /** As the network returned them. */
  network_components: unknown;
}

/** Imports templates made outside the service; an id already stored (any company, even deleted) is left alone. */
export async function insertImportedTemplates(db: Db, rows: ImportedTemplate[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db
    .insertInto('templates')
    .values(rows.map((r) => ({
      ...r,
      source: 'network',
      allow_category_change: false,
      components: JSON.stringify(r.components),
      network_components: JSON.stringify(r.network_components),
    })))
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .execute();
  return result.length;
}

/** What a WABA sync compares for a live stored template. */
export type SyncedTemplateRow = Pick<TemplateRow, 'id' | 'status' | 'category' | 'rejected_reason' | 'parameter_format' | 'network_components' | 'created_at'>;

/** The live templates of a company's WABA, as the sync compares them. */
export async function listTemplatesForSync(db: Db, companyId: string, wabaId: string): Promise<SyncedTemplateRow[]> {
  return db
    .selectFrom('templates')
    .select(['id', 'status', 'category', 'rejected_reason', 'parameter_format', 'network_components', 'created_at'])
    .where('company_id', '=', companyId)
    .where('waba_id', '=', wabaId)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Which of these template ids are stored at all (any company, deleted or not). */
export async function findStoredTemplateIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('templates').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** What a WABA sync changes on a stored template (only the fields given). */
export interface SyncedTemplateUpdate {
  status?: string;
  rejected_reason?: string | null;
  category?: string;
  parameter_format?: string;
  components?: unknown;
  network_components?: unknown;
}

/** Applies a sync's changes to a company's live template. */
export async function updateSyncedTemplate(db: Db, companyId: string, id: string, u: SyncedTemplateUpdate): Promise<void> {
  await db
    .updateTable('templates')
    .set({
      ...(u.status !== undefined && { status: u.status, rejected_reason: u.rejected_reason ?? null }),
      ...(u.category !== undefined && { category: u.category }),
      ...(u.parameter_format !== undefined && { parameter_format: u.parameter_format }),
      ...(u.components !== undefined && { components: JSON.stringify(u.components) }),
      ...(u.network_components !== undefined && { network_components: JSON.stringify(u.network_components) }),
      status_refreshed_at: new Date(),
      // Remembering the network's form of the components is bookkeeping, not a change a client can see.
      ...((u.status !== undefined || u.category !== undefined || u.parameter_format !== undefined || u.components !== undefined) && { updated_at: new Date() }),
    })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Soft-deletes a company's templates that a complete WABA listing no longer has (stored before `before` only). */
export async function markTemplatesDeletedAtNetwork(db: Db, companyId: string, wabaId: string, ids: string[], before: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('templates')
    .set({ deleted_at: new Date(), status: 'DELETED', updated_at: new Date() })
    .where('company_id', '=', companyId)
    .where('waba_id', '=', wabaId)
    .where('id', 'in', ids)
    .where('created_at', '<', before)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Sets a template's category from a `template_category_update` webhook. */
export async function updateTemplateCategory(db: Db, id: string, category: string): Promise<boolean> {
  const result = await db
    .updateTable('templates')
    .set({ category, updated_at: new Date() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The database clock (sync start times are compared with `created_at`, which it sets). */
export async function selectDbNow(db: Db): Promise<Date> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  return new Date(rows[0].now);
}

/** A company's WABA sync record, if any. */
export async function findTemplateSync(db: Db, companyId: string, wabaId: string) {
  return db
    .selectFrom('template_syncs')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('waba_id', '=', wabaId)
    .executeTakeFirst();
}

/** Records a sync attempt (and, when the listing was complete, the sync time). */
export async function upsertTemplateSync(db: Db, companyId: string, wabaId: string, complete: boolean): Promise<void> {
  const now = new Date();
  await db
    .insertInto('template_syncs')
    .values({ company_id: companyId, waba_id: wabaId, attempted_at: now, synced_at: complete ? now : null })
    .onConflict((oc) =>
      oc.columns(['company_id', 'waba_id']).doUpdateSet(complete ? { attempted_at: now, synced_at: now } : { attempted_at: now }),
    )
    .execute();
}

/**
 * Channels whose company has never completely synced the channel's WABA (one channel per company and WABA),
 * skipping those tried within `retrySeconds` and channels whose refused token is still held (`authHoldReason`):
 * another channel of the WABA is taken instead, or the WABA waits for the back-off.
 */
export async function listChannelsNeverSynced(db: Db, retrySeconds: number, limit: number): Promise<Array<{ company_id: string; id: string }>> {
  const { rows } = await sql<{ company_id: string; id: string }>`
    select distinct on (c.company_id, c.waba_id) c.company_id, c.id
    from channels c
    left join template_syncs s on s.company_id = c.company_id and s.waba_id = c.waba_id
    where s.synced_at is null
      and (s.attempted_at is null or s.attempted_at < now() - make_interval(secs => ${retrySeconds}))
      and (c.auth_error is null or c.auth_retry_at <= now())
    order by c.company_id, c.waba_id, c.id
    limit ${limit}`.execute(db);
  return rows;
}

/** One channel per company that has a channel on this WABA (webhooks name only the WABA). */
export async function listCompanyChannelsOfWaba(db: Db, wabaId: string): Promise<Array<{ company_id: string; id: string }>> {
  const { rows } = await sql<{ company_id: string; id: string }>`
    select distinct on (company_id) company_id, id from channels where waba_id = ${wabaId} order by company_id, id`.execute(db);
  return rows;
}

/** Live templates of a WABA for a company, newest first. */
export async function listTemplates(db: Db, companyId: string, wabaId: string): Promise<TemplateRow[]> {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('waba_id', '=', wabaId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A live template of the company by id (optionally only within one WABA). */
export async function findTemplate(db: Db, companyId: string, id: string, wabaId?: string): Promise<TemplateRow | undefined> {
  let query = db
    .selectFrom('templates')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (wabaId !== undefined) query = query.where('waba_id', '=', wabaId);
  return query.executeTakeFirst();
}

/** A template by its network id, whatever the company (webhooks carry only the network id). */
export async function findTemplateByNetworkId(db: Db, id: string): Promise<TemplateRow | undefined> {
  return db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Whether a name is taken in the company's templates of a WABA: a live template of any language, or one deleted
 * in the last 30 days. Company-scoped: another company with a channel of the same WABA id learns nothing here.
 */
export async function findNameConflict(db: Db, companyId: string, wabaId: string, name: string): Promise<'used' | 'recently_deleted' | null> {
  const row = await db
    .selectFrom('templates')
    .select(['deleted_at'])
    .where('company_id', '=', companyId)
    .where('waba_id', '=', wabaId)
    .where('name', '=', name)
    .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '>', sql<Date>`now() - interval '30 days'`)]))
    .orderBy(sql`deleted_at is null`, 'desc')
    .executeTakeFirst();
  if (!row) return null;
  return row.deleted_at === null ? 'used' : 'recently_deleted';
}

/** Records a successful name check (family B create needs one within the hour). */
export async function upsertNameCheck(db: Db, companyId: string, channelId: string, name: string): Promise<void> {
  await db
    .insertInto('template_name_checks')
    .values({ company_id: companyId, channel_id: channelId, name })
    .onConflict((oc) => oc.columns(['company_id', 'channel_id', 'name']).doUpdateSet({ checked_at: new Date() }))
    .execute();
}

/** Whether the name was checked on the channel within `seconds`. */
export async function hasRecentNameCheck(db: Db, companyId: string, channelId: string, name: string, seconds: number): Promise<boolean> {
  const row = await db
    .selectFrom('template_name_checks')
    .select('name')
    .where('company_id', '=', companyId)
    .where('channel_id', '=', channelId)
    .where('name', '=', name)
    .where('checked_at', '>', sql<Date>`now() - make_interval(secs => ${seconds})`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Sets a template's status (and reason) from the network; returns whether a row changed. */
export async function updateTemplateStatus(
  db: Db,
  id: string,
  status: string,
  rejectedReason: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable('templates')
    .set({ status, rejected_reason: rejectedReason, status_refreshed_at: new Date(), updated_at: new Date() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Sets a template's quality score from the network. */
export async function updateTemplateQuality(db: Db, id: string, quality: string): Promise<void> {
  await db.updateTable('templates').set({ quality_score: quality, updated_at: new Date() }).where('id', '=', id).execute();
}

/** Marks templates whose status was read now (nothing changed). */
export async function touchTemplateStatus(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('templates').set({ status_refreshed_at: new Date() }).where('id', 'in', ids).execute();
}

/** Soft-deletes a template (the name stays blocked for 30 days). */
export async function markTemplateDeleted(db: Db, companyId: string, id: string): Promise<void> {
  await db
    .updateTable('templates')
    .set({ deleted_at: new Date(), status: 'DELETED', updated_at: new Date() })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

/** Stores an uploaded media handle. */
export async function insertMediaUpload(
  db: Db,
  m: { file_handle: string; company_id: string; channel_id: string; file_name: string; file_type: string; file_length: number },
): Promise<void> {
  await db.insertInto('media_uploads').values(m).execute();
}

/** A company's uploaded media handle. */
export async function findMediaUpload(db: Db, companyId: string, fileHandle: string) {
  return db
    .selectFrom('media_uploads')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('file_handle', '=', fileHandle)
    .executeTakeFirst();
}

/** A template's category by id (the sender's choice of endpoint); undefined when it is gone. */
export async function findTemplateCategory(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('templates').select('category').where('id', '=', id).executeTakeFirst();
  return row?.category;
}

/** Which of these templates of the company are MARKETING (a marketing-only opt-out refuses their messages). */
export async function findMarketingTemplateIds(db: Db, companyId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('templates').select('id')
    .where('company_id', '=', companyId).where('id', 'in', ids).where('category', '=', 'MARKETING').execute();
  return new Set(rows.map((r) => r.id));
}
