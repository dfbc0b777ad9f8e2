/**
 * Template sync from the WABA: reads every page of `GET /{waba}/message_templates` and brings a company's stored
 * templates of that WABA in line. Templates made outside the service (WhatsApp Manager) are imported; status,
 * category, parameter format and components follow the network; a stored template missing from a COMPLETE listing
 * is soft-deleted (never on a partial or failed listing, and never one stored after the listing began).
 * Runs on list/get when the last attempt is older than the freshness window, for never-synced channels from a
 * background sweep, and (forced) after template webhooks. One run per company and WABA at a time in a process.
 * A channel whose token the network refused is not called until its back-off passes or the token is rotated.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { authHoldReason } from '../domain/channel.js';
import { normalizeComponents } from '../domain/templates/normalize.js';
import type { ChannelCredentials, GraphTemplate, NetworkPort } from '../network/port.js';
import { findChannel, type ChannelRow } from '../store/channels.js';
import type { Database } from '../store/schema.js';
import {
  findStoredTemplateIds,
  findTemplateSync,
  insertImportedTemplates,
  listChannelsNeverSynced,
  listCompanyChannelsOfWaba,
  listTemplatesForSync,
  markTemplatesDeletedAtNetwork,
  selectDbNow,
  touchTemplateStatus,
  updateSyncedTemplate,
  upsertTemplateSync,
  type ImportedTemplate,
  type SyncedTemplateUpdate,
} from '../store/templates.js';
import { channelAuthError } from './channel-health.js';

/** What a sync needs. */
export interface TemplateSyncDeps {
  db: Kysely<Database>;
  network: NetworkPort;
  log: Logger;
  /** A sync attempt younger than this is fresh enough for list/get (ms). */
  statusMaxAgeMs: number;
  /** The network credentials of a stored channel (opens its sealed token). */
  credentials(channel: ChannelRow): ChannelCredentials;
}

/** What one sync did. */
export interface SyncResult {
  /** Every page was read. */
  complete: boolean;
  imported: number;
  updated: number;
  removed: number;
}

/** Templates per listing page (the network's default is 25). */
const SYNC_PAGE_SIZE = 100;
/** Pages per sync at most (a WABA holds 250, or 6,000 for verified portfolios). */
const MAX_SYNC_PAGES = 100;
/** Forced re-runs queued behind a running sync at most. */
const MAX_RERUNS = 3;

interface Slot {
  promise: Promise<SyncResult>;
  again: boolean;
}
const running = new WeakMap<object, Map<string, Slot>>();

function slotsOf(deps: TemplateSyncDeps): Map<string, Slot> {
  let slots = running.get(deps.db);
  if (!slots) running.set(deps.db, (slots = new Map()));
  return slots;
}

/** JSON with sorted keys (jsonb does not keep key order). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function reasonOf(t: GraphTemplate): string | null {
  return t.rejected_reason && t.rejected_reason !== 'NONE' ? t.rejected_reason : null;
}

/** Reads every page of the WABA's listing; `complete` is false when a page failed or the page bound was hit. */
async function readListing(deps: TemplateSyncDeps, channel: ChannelRow): Promise<{ templates: GraphTemplate[]; complete: boolean }> {
  const creds = deps.credentials(channel);
  const byId = new Map<string, GraphTemplate>();
  let after: string | undefined;
  try {
    for (let page = 0; page < MAX_SYNC_PAGES; page++) {
      const res = await deps.network.listTemplates(creds, { limit: SYNC_PAGE_SIZE, after });
      for (const t of res.data) byId.set(t.id, t);
      if (!res.paging.hasMore || !res.paging.after) return { templates: [...byId.values()], complete: true };
      after = res.paging.after;
    }
    deps.log.warn({ wabaId: channel.waba_id }, 'template sync stopped at its page bound; nothing is removed');
  } catch (error) {
    deps.log.warn({ err: error, wabaId: channel.waba_id }, 'template listing failed; nothing is removed');
  }
  return { templates: [...byId.values()], complete: false };
}

/** The changes a listed template brings to its stored row (empty when none). */
function changesOf(row: { status: string; rejected_reason: string | null; category: string; parameter_format: string; network_components: unknown }, t: GraphTemplate): SyncedTemplateUpdate {
  const u: SyncedTemplateUpdate = {};
  const reason = reasonOf(t);
  if (t.status !== row.status || reason !== row.rejected_reason) {
    u.status = t.status;
    u.rejected_reason = reason;
  }
  if (t.category && t.category !== row.category) u.category = t.category;
  const format = t.parameter_format ?? 'POSITIONAL';
  if (format !== row.parameter_format) u.parameter_format = format;
  if (row.network_components === null || row.network_components === undefined) {
    // First sight of a template created through the service: keep our stored form, remember the network's.
    u.network_components = t.components;
  } else if (canonical(row.network_components) !== canonical(t.components)) {
    // Edited at the network (WhatsApp Manager or the edit API): the network's components replace ours.
    u.network_components = t.components;
    u.components = normalizeComponents(t.components).components;
  }
  return u;
}

/** One sync of a company's WABA through one of its channels. */
async function syncOnce(deps: TemplateSyncDeps, companyId: string, channel: ChannelRow): Promise<SyncResult> {
  const startedAt = await selectDbNow(deps.db);
  const { templates, complete } = await readListing(deps, channel);
  const result: SyncResult = { complete, imported: 0, updated: 0, removed: 0 };
  await deps.db.transaction().execute(async (tx) => {
    const stored = new Map((await listTemplatesForSync(tx, companyId, channel.waba_id)).map((r) => [r.id, r]));
    const unknown = templates.filter((t) => !stored.has(t.id));
    const elsewhere = await findStoredTemplateIds(tx, unknown.map((t) => t.id));
    const imports: ImportedTemplate[] = unknown
      .filter((t) => !elsewhere.has(t.id))
      .map((t) => ({
        id: t.id,
        company_id: companyId,
        channel_id: channel.id,
        waba_id: channel.waba_id,
        name: t.name,
        language: t.language,
        category: t.category,
        status: t.status,
        rejected_reason: reasonOf(t),
        parameter_format: t.parameter_format ?? 'POSITIONAL',
        components: normalizeComponents(t.components).components,
        network_components: t.components,
      }));
    result.imported = await insertImportedTemplates(tx, imports);
    const unchanged: string[] = [];
    for (const t of templates) {
      const row = stored.get(t.id);
      if (!row) continue;
      const u = changesOf(row, t);
      if (Object.keys(u).length === 0) {
        unchanged.push(t.id);
        continue;
      }
      result.updated++;
      await updateSyncedTemplate(tx, companyId, t.id, u);
    }
    // Their status was read now, so list/get skip the per-template refresh.
    await touchTemplateStatus(tx, unchanged);
    if (complete) {
      const listed = new Set(templates.map((t) => t.id));
      const gone = [...stored.keys()].filter((id) => !listed.has(id));
      result.removed = await markTemplatesDeletedAtNetwork(tx, companyId, channel.waba_id, gone, startedAt);
    }
    await upsertTemplateSync(tx, companyId, channel.waba_id, complete);
  });
  if (result.imported || result.updated || result.removed || !complete) {
    deps.log.info({ companyId, wabaId: channel.waba_id, ...result }, 'template sync');
  }
  return result;
}

/**
 * Syncs the company's WABA of this channel now; a sync already running is shared, and `force` (a webhook said
 * something changed) queues one more run after it, since the running listing may predate the change.
 */
export function syncTemplates(deps: TemplateSyncDeps, companyId: string, channel: ChannelRow, force = false): Promise<SyncResult> {
  // The token was refused: no call until the back-off passes or a rotation clears the mark (callers serve stored).
  if (authHoldReason(channel)) return Promise.reject(channelAuthError(channel));
  const slots = slotsOf(deps);
  const key = `${companyId}\u0000${channel.waba_id}`;
  const busy = slots.get(key);
  if (busy) {
    if (force) busy.again = true;
    return busy.promise;
  }
  const slot: Slot = { again: false, promise: Promise.resolve({ complete: false, imported: 0, updated: 0, removed: 0 }) };
  slot.promise = (async () => {
    try {
      let result: SyncResult;
      let runs = 0;
      do {
        slot.again = false;
        result = await syncOnce(deps, companyId, channel);
      } while (slot.again && ++runs < MAX_RERUNS);
      return result;
    } finally {
      slots.delete(key);
    }
  })();
  slots.set(key, slot);
  return slot.promise;
}

/**
 * Syncs when the last attempt for the company's WABA is older than the freshness window (or there was none). A sync
 * already running began before this request, so its listing may miss what changed just before it (a template made in
 * WhatsApp Manager a moment ago): one more run after it is queued, as for a webhook.
 */
export async function syncTemplatesIfDue(deps: TemplateSyncDeps, companyId: string, channel: ChannelRow): Promise<void> {
  const last = await findTemplateSync(deps.db, companyId, channel.waba_id);
  if (last && Date.now() - last.attempted_at.getTime() <= deps.statusMaxAgeMs) return;
  try {
    await syncTemplates(deps, companyId, channel, true);
  } catch (error) {
    deps.log.warn({ err: error, wabaId: channel.waba_id }, 'template sync failed; serving stored templates');
  }
}

/** Forced syncs of every company with a channel on this WABA (after a template webhook). */
export async function syncWabaEverywhere(deps: TemplateSyncDeps, wabaId: string): Promise<void> {
  for (const { company_id: companyId, id } of await listCompanyChannelsOfWaba(deps.db, wabaId)) {
    const channel = await findChannel(deps.db, companyId, id);
    if (!channel) continue;
    // One company's failed sync (a refused token) does not keep the others' from running.
    await syncTemplates(deps, companyId, channel, true).catch((error: unknown) =>
      deps.log.warn({ err: error, companyId, wabaId }, 'template sync after a webhook failed; retried on the next list or webhook'),
    );
  }
}

/** Syncs channels never synced (a channel added by the CLI is first seen here); returns how many were tried. */
export async function syncNeverSyncedChannels(deps: TemplateSyncDeps, retrySeconds = 60, limit = 10): Promise<number> {
  const due = await listChannelsNeverSynced(deps.db, retrySeconds, limit);
  for (const { company_id: companyId, id } of due) {
    const channel = await findChannel(deps.db, companyId, id);
    if (!channel) continue;
    try {
      await syncTemplates(deps, companyId, channel);
    } catch (error) {
      deps.log.warn({ err: error, channelId: id }, 'first template sync failed; retried later');
    }
  }
  return due.length;
}

/** Runs `syncNeverSyncedChannels` now and every `intervalMs`; returns a stop function that waits for a running pass. */
export function startTemplateSyncSweep(deps: TemplateSyncDeps, intervalMs = 5000): () => Promise<void> {
  let pass: Promise<unknown> | null = null;
  const tick = () => {
    if (pass) return;
    pass = syncNeverSyncedChannels(deps)
      .catch((error) => deps.log.warn({ err: error }, 'template sync sweep failed'))
      .finally(() => (pass = null));
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await pass;
  };
}
