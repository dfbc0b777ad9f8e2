/**
 * The single send: checked in full before anything is stored (template APPROVED and of the channel's
 * WABA, parameters against the template, E.164 number, channel not blocked and its token not refused, recipient
 * not opted out, tier quota), then queued for the dispatcher, which hands it to the network at most once.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { authHoldReason, channelBlockReason, tierLimit } from '../domain/channel.js';
import { newId } from '../domain/ids.js';
import { normalizePhone } from '../domain/phone.js';
import { toNetworkComponents } from '../domain/templates/send-parameters.js';
import type { StoredComponents } from '../domain/templates/types.js';
import type { TemplateSendPayload } from '../network/port.js';
import { insertMessages } from '../store/messages.js';
import { findOptOut } from '../store/opt-outs.js';
import type { Database } from '../store/schema.js';
import { countWindowRecipients, findWindowRecipients, lockChannel, releaseTierHold, reserveWindowRecipients } from '../store/sending.js';
import { findTemplate, type TemplateRow } from '../store/templates.js';
import { channelAuthError, readChannelHealth, type ChannelHealthDeps } from './channel-health.js';

/** A single-send request. */
export interface SingleSendRequest {
  channelId: string;
  phoneNumber: string;
  templateId: string;
  fullName?: string;
  components?: unknown;
}

/** What the single send needs. */
export interface SingleSendDeps {
  db: Kysely<Database>;
  health: ChannelHealthDeps;
  /** Called after the message is queued (wakes the dispatcher). */
  queued(): void;
}

/** The template, if the caller may send it on this channel. */
export async function requireSendableTemplate(db: Kysely<Database>, companyId: string, wabaId: string, templateId: string): Promise<TemplateRow> {
  const template = await findTemplate(db, companyId, templateId, wabaId);
  if (!template) throw new AppError('NOT_FOUND', `Template ${templateId} was not found on this channel.`, { field: 'message_template_id' });
  if (template.status !== 'APPROVED') {
    throw new AppError('TEMPLATE_NOT_APPROVED', `Template ${template.name} is ${template.status}; only APPROVED templates can be sent.`, {
      field: 'message_template_id',
    });
  }
  return template;
}

/** The network's send payload for a template and its parameters (throws PARAMETERS_INVALID). */
export function buildPayload(template: TemplateRow, to: string, components: unknown, root: string): TemplateSendPayload {
  const network = toNetworkComponents(template.components as StoredComponents, components, root);
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      ...(network.length ? { components: network as TemplateSendPayload['template']['components'] } : {}),
    },
  };
}

/**
 * Queues one message; returns its id. `inTransaction` runs last in the transaction that stores the message
 * (the Idempotency-Key answer commits with the message, or neither does).
 */
export async function sendSingle(
  deps: SingleSendDeps,
  companyId: string,
  req: SingleSendRequest,
  inTransaction?: (tx: Kysely<Database>, id: string) => Promise<void>,
): Promise<string> {
  const channel = await readChannelHealth(deps.health, companyId, req.channelId);
  // A channel whose token the network refused answers 503 and stores nothing (queued sends wait for rotation).
  if (authHoldReason(channel)) throw channelAuthError(channel);
  const phone = normalizePhone(req.phoneNumber);
  if (!phone.ok) throw new AppError('VALIDATION_FAILED', phone.reason, { field: 'phone_number' });
  const template = await requireSendableTemplate(deps.db, companyId, channel.waba_id, req.templateId);
  const payload = buildPayload(template, phone.e164, req.components, 'message_template');
  const blocked = channelBlockReason({ status: channel.status, qualityRating: channel.quality_rating, messagingLimitTier: channel.messaging_limit_tier });
  if (blocked) throw new AppError('CHANNEL_BLOCKED', `The channel cannot send: ${blocked}.`, { field: 'channel_id' });
  // An opted-out recipient is refused at once and nothing is stored (an opt-out arriving after this check is still
  // caught by the dispatcher's number check: the message then ends OPT_IN_FAILED, RECIPIENT_OPTED_OUT).
  if (await findOptOut(deps.db, companyId, phone.e164)) {
    throw new AppError('RECIPIENT_OPTED_OUT', `${phone.e164} is on the company's opt-out list; nothing was sent.`, { field: 'phone_number' });
  }

  const id = newId();
  await deps.db.transaction().execute(async (tx) => {
    const limit = tierLimit(channel.messaging_limit_tier);
    if (limit !== null) {
      await lockChannel(tx, channel.id);
      const inWindow = await findWindowRecipients(tx, channel.id, [phone.e164]);
      if (!inWindow.has(phone.e164)) {
        if ((await countWindowRecipients(tx, channel.id)) >= limit) {
          throw new AppError('TIER_LIMIT_REACHED', undefined, { field: 'phone_number', retryAfter: 3600 });
        }
        await reserveWindowRecipients(tx, channel.id, [phone.e164], undefined, [id]);
      }
      // Its slot is in the window: a tier hold of the channel must not keep this row waiting.
      await releaseTierHold(tx, channel.id);
    }
    await insertMessages(tx, [
      {
        id,
        company_id: companyId,
        channel_id: channel.id,
        template_id: template.id,
        waba_id: channel.waba_id,
        send_wizard_id: null,
        row_no: null,
        phone_number: phone.e164,
        full_name: req.fullName ?? null,
        status: 'QUEUED',
        payload,
        due_at: new Date(),
      },
    ]);
    await inTransaction?.(tx, id);
  });
  deps.queued();
  return id;
}
