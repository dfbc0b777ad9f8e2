/** Applies `message_template_status_update` and `message_template_quality_update` webhooks. */
import type { Logger } from 'pino';
import { findTemplateByNetworkId, updateTemplateQuality, updateTemplateStatus } from '../store/templates.js';
import { perChange, type ChangeHandler } from './webhook-inbox.js';

/** Webhook events that name a status other than themselves. */
const STATUS_OF_EVENT: Record<string, string> = { REINSTATED: 'APPROVED', UNARCHIVED: 'APPROVED' };

/** The template status handler: the event becomes the status (REINSTATED → APPROVED), with the reason. */
export function templateStatusHandler(log: Logger): ChangeHandler {
  return perChange(async ({ tx, entryId, value }) => {
    const id = String(value.message_template_id ?? '');
    const event = typeof value.event === 'string' ? value.event : '';
    if (!id || !event) return;
    const template = await findTemplateByNetworkId(tx, id);
    // Template ids are the network's and globally unique; the WABA check guards against a mismatched event.
    if (!template || (entryId && template.waba_id !== entryId)) return;
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
