/**
 * Applies the template webhooks: `message_template_status_update`, `message_template_quality_update`,
 * `template_category_update` and `message_template_components_update`. What the webhook says is applied in the
 * inbox's transaction; a template the service does not know yet (made outside it) and every components change
 * (the webhook carries no examples or quick replies) are fetched by a forced WABA sync after commit.
 */
import type { Logger } from 'pino';
import { findTemplateByNetworkId, updateTemplateCategory, updateTemplateQuality, updateTemplateStatus } from '../store/templates.js';
import { syncWabaEverywhere, type TemplateSyncDeps } from './template-sync.js';
import { perChange, type ChangeContext, type ChangeHandler } from './webhook-inbox.js';

/** Webhook events that name a status other than themselves. */
const STATUS_OF_EVENT: Record<string, string> = { REINSTATED: 'APPROVED', UNARCHIVED: 'APPROVED' };

/** Queues a forced sync of the WABA after commit (no-op without sync deps or a WABA id). */
function syncAfterCommit(sync: TemplateSyncDeps | undefined, afterCommit: ChangeContext['afterCommit'], wabaId: string): void {
  if (sync && wabaId) afterCommit(() => syncWabaEverywhere(sync, wabaId));
}

/**
 * The template status handler: the event becomes the status (REINSTATED → APPROVED), with the reason; an unknown
 * template id (made outside the service) syncs the WABA.
 */
export function templateStatusHandler(log: Logger, sync?: TemplateSyncDeps): ChangeHandler {
  return perChange(async ({ tx, entryId, value, afterCommit }) => {
    const id = String(value.message_template_id ?? '');
    const event = typeof value.event === 'string' ? value.event : '';
    if (!id || !event) return;
    const template = await findTemplateByNetworkId(tx, id);
    if (!template) return syncAfterCommit(sync, afterCommit, entryId);
    // Template ids are the network's and globally unique; the WABA check guards against a mismatched event.
    if (entryId && template.waba_id !== entryId) return;
    const reason = typeof value.reason === 'string' && value.reason !== 'NONE' ? value.reason : null;
    const status = STATUS_OF_EVENT[event] ?? event;
    await updateTemplateStatus(tx, id, status, status === 'REJECTED' ? reason : null);
    log.info({ templateId: id, status, reason }, 'template status update applied');
  });
}

/** The template quality handler: stores `new_quality_score`. */
export function templateQualityHandler(): ChangeHandler {
  return perChange(async ({ tx, entryId, value }) => {
    const id = String(value.message_template_id ?? '');
    const quality = typeof value.new_quality_score === 'string' ? value.new_quality_score : '';
    if (!id || !quality) return;
    const template = await findTemplateByNetworkId(tx, id);
    if (!template || (entryId && template.waba_id !== entryId)) return;
    await updateTemplateQuality(tx, id, quality);
  });
}

/**
 * The template category handler: a completed change (`previous_category` + `new_category`) sets the category; an
 * impending one (`correct_category`) is only logged, as the category has not changed yet.
 */
export function templateCategoryHandler(log: Logger, sync?: TemplateSyncDeps): ChangeHandler {
  return perChange(async ({ tx, entryId, value, afterCommit }) => {
    const id = String(value.message_template_id ?? '');
    const category = typeof value.new_category === 'string' ? value.new_category : '';
    if (!id || !category) return;
    const template = await findTemplateByNetworkId(tx, id);
    if (!template) return syncAfterCommit(sync, afterCommit, entryId);
    if (entryId && template.waba_id !== entryId) return;
    if (typeof value.previous_category !== 'string') {
      log.info({ templateId: id, correctCategory: value.correct_category }, 'template category change announced');
      return;
    }
    await updateTemplateCategory(tx, id, category);
    log.info({ templateId: id, from: value.previous_category, to: category }, 'template category update applied');
  });
}

/** The template components handler: the WABA is synced after commit, which reads the edited components. */
export function templateComponentsHandler(sync?: TemplateSyncDeps): ChangeHandler {
  return perChange(async ({ tx, entryId, value, afterCommit }) => {
    const id = String(value.message_template_id ?? '');
    if (!id) return;
    const template = await findTemplateByNetworkId(tx, id);
    if (template && entryId && template.waba_id !== entryId) return;
    syncAfterCommit(sync, afterCommit, entryId || template?.waba_id || '');
  });
}
