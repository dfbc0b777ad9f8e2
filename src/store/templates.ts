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
}

/** Inserts a template. */
export async function insertTemplate(db: Db, t: NewTemplate): Promise<void> {
  await db
    .insertInto('templates')
    .values({ ...t, components: JSON.stringify(t.components), media_names: t.media_names ? JSON.stringify(t.media_names) : null })
    .execute();
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
