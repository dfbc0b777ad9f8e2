/**
 * Template use cases shared by both route families: check a name, create (validated by the network's
 * rules, then submitted to the network), list and read (stale review statuses refreshed from the
 * network), delete (network first, then the name is blocked 30 days).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { SecretBox } from '../domain/secret-box.js';
import { AppError } from '../errors.js';
import { normalizeComponents } from '../domain/templates/normalize.js';
import { parameterFormatOf } from '../domain/templates/placeholders.js';
import type { Component } from '../domain/templates/types.js';
import { validateTemplate, validateTemplateName } from '../domain/templates/validate.js';
import type { GraphTemplateComponent, NetworkPort } from '../network/port.js';
import { findChannel, type ChannelRow } from '../store/channels.js';
import type { Database } from '../store/schema.js';
import {
  findMediaUpload,
  findNameConflict,
  findTemplate,
  hasRecentNameCheck,
  insertTemplate,
  listTemplates,
  markTemplateDeleted,
  touchTemplateStatus,
  updateTemplateStatus,
  upsertNameCheck,
  type TemplateRow,
} from '../store/templates.js';
import { credentialsOf } from './credentials.js';
import { toAppError } from './network-errors.js';
import { syncTemplatesIfDue, type TemplateSyncDeps } from './template-sync.js';

/** What the template use cases need. */
export interface TemplateDeps {
  db: Kysely<Database>;
  network: NetworkPort;
  log: Logger;
  /** Most variables in a BODY (the interface's limit). */
  maxBodyParams: number;
  /** How long a successful check-name allows a family B create of that name (s). */
  nameCheckWindowSeconds: number;
  /** How long a non-final review status is trusted before list/get ask the network (ms). */
  statusMaxAgeMs: number;
  /** Opens the sealed channel access token. */
  secrets: SecretBox;
}

/** Statuses that can still change by review; list/get refresh these when stale. */
const REVIEW_STATUSES = new Set(['PENDING', 'IN_APPEAL', 'PENDING_DELETION', 'PAUSED', 'LIMIT_EXCEEDED']);
/** How many templates one list call refreshes at most (bounded fan-out to the network). */
const MAX_REFRESH_PER_CALL = 25;

/** A create request, from either family. */
export interface CreateTemplateRequest {
  channelId: string;
  name: unknown;
  category: unknown;
  language: unknown;
  components: unknown;
  allowCategoryChange: boolean;
  /** Family B: the media handle of an IMAGE/VIDEO/DOCUMENT header. */
  fileHandle?: string;
  /** Family A v2: handle → file name. */
  mediaNames?: Record<string, string>;
  /** Family B requires a check-name of the name on the channel within the window. */
  requireNameCheck: boolean;
}


/** The caller's channel or 404 naming channel_id. */
export async function requireChannel(db: Kysely<Database>, companyId: string, channelId: string): Promise<ChannelRow> {
  const channel = await findChannel(db, companyId, channelId);
  if (!channel) throw new AppError('CHANNEL_NOT_FOUND', `Channel ${channelId} was not found.`, { field: 'channel_id' });
  return channel;
}

async function assertNameFree(db: Kysely<Database>, companyId: string, wabaId: string, name: string): Promise<void> {
  const conflict = await findNameConflict(db, companyId, wabaId, name);
  if (conflict === 'used') throw new AppError('TEMPLATE_NAME_TAKEN', `The name ${name} is used by a template of this channel.`, { field: 'name' });
  if (conflict === 'recently_deleted') {
    throw new AppError('TEMPLATE_NAME_TAKEN', `The name ${name} was deleted in the last 30 days and cannot be reused yet.`, { field: 'name' });
  }
}

/** The WABA sync's view of the template dependencies. */
export function templateSyncDeps(deps: TemplateDeps): TemplateSyncDeps {
  return {
    db: deps.db,
    network: deps.network,
    log: deps.log,
    statusMaxAgeMs: deps.statusMaxAgeMs,
    credentials: (channel) => credentialsOf(channel, deps.secrets),
  };
}

/** Pages of a name-filtered listing read by check-name at most (the network matches parts of names). */
const MAX_NAME_CHECK_PAGES = 10;

/**
 * Whether the WABA has a template of exactly this name at the network (made outside the service, or not yet
 * synced). Network trouble answers false: the network still refuses a duplicate at create.
 */
async function nameTakenAtNetwork(deps: TemplateDeps, channel: ChannelRow, name: string): Promise<boolean> {
  let after: string | undefined;
  try {
    for (let page = 0; page < MAX_NAME_CHECK_PAGES; page++) {
      const res = await deps.network.listTemplates(credentialsOf(channel, deps.secrets), { name, limit: 100, after });
      if (res.data.some((t) => t.name === name)) return true;
      if (!res.paging.hasMore || !res.paging.after) return false;
      after = res.paging.after;
    }
  } catch (error) {
    deps.log.warn({ err: error, name }, 'check-name could not read the network; the local check stands');
  }
  return false;
}

/**
 * check-name: valid, not used on the channel (any language) here or at the network, not deleted here in 30 days;
 * remembered 1 h.
 */
export async function checkTemplateName(deps: TemplateDeps, companyId: string, channelId: string, name: string): Promise<void> {
  const channel = await requireChannel(deps.db, companyId, channelId);
  const errors = validateTemplateName(name);
  if (errors.length) throw new AppError('TEMPLATE_NAME_INVALID', errors[0].message, { field: 'name', details: errors });
  await assertNameFree(deps.db, companyId, channel.waba_id, name);
  if (await nameTakenAtNetwork(deps, channel, name)) {
    throw new AppError('TEMPLATE_NAME_TAKEN', `The name ${name} is used by a template of this channel's WhatsApp Business Account.`, { field: 'name' });
  }
  await upsertNameCheck(deps.db, companyId, channel.id, name);
}

const MEDIA_FORMATS = new Set(['IMAGE', 'VIDEO', 'DOCUMENT']);

/** Puts a family B `file_handle` into the top-level media header's example, where the network wants it. */
function withFileHandle(components: Component[], fileHandle: string | undefined): Component[] {
  return components.map((c) =>
    c.type === 'HEADER' && MEDIA_FORMATS.has(c.format) && fileHandle
      ? { ...c, example: { ...(c.example ?? {}), header_handle: [fileHandle] } }
      : c,
  );
}

function hasMediaHeader(components: Component[]): boolean {
  return components.some((c) => c.type === 'HEADER' && MEDIA_FORMATS.has(c.format));
}

/** Creates a template: rules first (nothing reaches the network when invalid), then the network, then the row. */
export async function createTemplate(deps: TemplateDeps, companyId: string, req: CreateTemplateRequest): Promise<TemplateRow> {
  const channel = await requireChannel(deps.db, companyId, req.channelId);
  const nameErrors = validateTemplateName(req.name);
  if (nameErrors.length) throw new AppError('TEMPLATE_NAME_INVALID', nameErrors[0].message, { field: 'name', details: nameErrors });
  const name = req.name as string;
  if (req.requireNameCheck && !(await hasRecentNameCheck(deps.db, companyId, channel.id, name, deps.nameCheckWindowSeconds))) {
    throw new AppError('NAME_NOT_CHECKED', undefined, { field: 'name' });
  }
  const familyB = req.fileHandle !== undefined || req.requireNameCheck;
  const errors = validateTemplate(
    { name, category: req.category, language: req.language, components: req.components },
    { maxBodyParams: deps.maxBodyParams, requireHeaderHandle: !familyB },
  );
  if (errors.length) throw new AppError('TEMPLATE_INVALID', errors[0].message, { field: errors[0].field, details: errors });
  const normalized = normalizeComponents(req.components).components;
  if (familyB && hasMediaHeader(normalized)) {
    if (!req.fileHandle) throw new AppError('MEDIA_REQUIRED', undefined, { field: 'file_handle' });
    if (!(await findMediaUpload(deps.db, companyId, req.fileHandle))) {
      throw new AppError('VALIDATION_FAILED', 'file_handle is not a media handle uploaded by this company (POST /api/v1/media).', { field: 'file_handle' });
    }
  }
  const components = withFileHandle(normalized, req.fileHandle);
  await assertNameFree(deps.db, companyId, channel.waba_id, name);

  const language = req.language as string;
  const category = req.category as string;
  let created;
  try {
    created = await deps.network.createTemplate(credentialsOf(channel, deps.secrets), {
      name,
      language,
      category,
      components: components as unknown as GraphTemplateComponent[],
      // Named texts ({{first_name}}) need the network's NAMED format; positional requests stay as before.
      ...(parameterFormatOf(components) === 'NAMED' ? { parameter_format: 'NAMED' as const } : {}),
    });
  } catch (error) {
    throw toAppError(error, 'create');
  }
  await insertTemplate(deps.db, {
    id: created.id,
    company_id: companyId,
    channel_id: channel.id,
    waba_id: channel.waba_id,
    name,
    language,
    category: created.category || category,
    status: created.status,
    components,
    allow_category_change: req.allowCategoryChange,
    media_names: req.mediaNames ?? null,
    parameter_format: parameterFormatOf(components),
  });
  const row = await findTemplate(deps.db, companyId, created.id);
  if (!row) throw new Error(`template ${created.id} vanished after insert`);
  return row;
}

/** Asks the network for the status of stale templates under review; network trouble keeps stored values. */
async function refreshStale(deps: TemplateDeps, channel: ChannelRow, rows: TemplateRow[]): Promise<TemplateRow[]> {
  const now = Date.now();
  const stale = rows
    .filter((r) => REVIEW_STATUSES.has(r.status) && now - r.status_refreshed_at.getTime() > deps.statusMaxAgeMs)
    .slice(0, MAX_REFRESH_PER_CALL);
  if (stale.length === 0) return rows;
  const fresh = new Map<string, { status: string; reason: string | null }>();
  await Promise.all(
    stale.map(async (row) => {
      try {
        const t = await deps.network.getTemplate(credentialsOf(channel, deps.secrets), row.id);
        fresh.set(row.id, { status: t.status, reason: t.rejected_reason && t.rejected_reason !== 'NONE' ? t.rejected_reason : null });
      } catch (error) {
        deps.log.warn({ err: error, templateId: row.id }, 'template status refresh failed; keeping the stored status');
      }
    }),
  );
  const unchanged: string[] = [];
  for (const row of stale) {
    const f = fresh.get(row.id);
    if (!f) continue;
    if (f.status === row.status) unchanged.push(row.id);
    else await updateTemplateStatus(deps.db, row.id, f.status, f.reason);
  }
  await touchTemplateStatus(deps.db, unchanged);
  return rows.map((r) => {
    const f = fresh.get(r.id);
    return f ? { ...r, status: f.status, rejected_reason: f.reason ?? r.rejected_reason } : r;
  });
}

/** The templates of the channel's WABA (synced from the network when stale), statuses refreshed when stale. */
export async function listChannelTemplates(deps: TemplateDeps, companyId: string, channelId: string): Promise<TemplateRow[]> {
  const channel = await requireChannel(deps.db, companyId, channelId);
  await syncTemplatesIfDue(templateSyncDeps(deps), companyId, channel);
  return refreshStale(deps, channel, await listTemplates(deps.db, companyId, channel.waba_id));
}

/** One template of the channel's WABA (synced from the network when stale), or 404 (also for another company's template). */
export async function getChannelTemplate(deps: TemplateDeps, companyId: string, channelId: string, templateId: string): Promise<TemplateRow> {
  const channel = await requireChannel(deps.db, companyId, channelId);
  await syncTemplatesIfDue(templateSyncDeps(deps), companyId, channel);
  const row = await findTemplate(deps.db, companyId, templateId, channel.waba_id);
  if (!row) throw new AppError('NOT_FOUND', `Template ${templateId} was not found.`, { field: 'template_id' });
  const [fresh] = await refreshStale(deps, channel, [row]);
  return fresh;
}

/** Deletes a template at the network (that language only), then marks it deleted here. */
export async function deleteTemplate(deps: TemplateDeps, companyId: string, templateId: string, field = 'id'): Promise<void> {
  const row = await findTemplate(deps.db, companyId, templateId);
  if (!row) throw new AppError('NOT_FOUND', `Template ${templateId} was not found.`, { field });
  const channel = await findChannel(deps.db, companyId, row.channel_id);
  if (!channel) throw new AppError('NOT_FOUND', `Template ${templateId} was not found.`, { field });
  try {
    await deps.network.deleteTemplate(credentialsOf(channel, deps.secrets), { name: row.name, templateId: row.id });
  } catch (error) {
    throw toAppError(error, 'delete');
  }
  await markTemplateDeleted(deps.db, companyId, row.id);
}
