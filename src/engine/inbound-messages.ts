/**
 * Inbound customer messages (`field: messages`, `value.messages[]`): a reply that is exactly one of the company's
 * opt-out keywords (case-insensitive, trimmed, see `domain/opt-outs.ts`) adds its sender to the company that owns
 * the receiving channel (`value.metadata.phone_number_id`). It runs in the webhook inbox's transaction, after the
 * status handler, so a stored STOP is applied exactly once or retried; it is never lost. Anything else (other
 * replies, media, reactions, an unknown channel) changes nothing.
 */
import type { Logger } from 'pino';
import { DEFAULT_OPT_OUT_KEYWORDS, matchKeyword, replyText, type InboundMessage } from '../domain/opt-outs.js';
import { normalizePhone } from '../domain/phone.js';
import { findChannelById } from '../store/channels.js';
import { findOptOutKeywords, insertOptOuts, type NewOptOut } from '../store/opt-outs.js';
import type { ChangeHandler } from './webhook-inbox.js';

/** The handler for inbound messages of `field: messages` (statuses are left to the status handler). */
export function inboundMessageHandler(log: Pick<Logger, 'info' | 'warn'>): ChangeHandler {
  return async ({ tx, changes }) => {
    const keywordsOf = new Map<string, readonly string[]>();
    const byCompany = new Map<string, Map<string, NewOptOut>>();
    for (const { value } of changes) {
      const messages = Array.isArray(value.messages) ? (value.messages as InboundMessage[]) : [];
      if (messages.length === 0) continue;
      const channelId = (value.metadata as { phone_number_id?: unknown } | undefined)?.phone_number_id;
      const channel = typeof channelId === 'string' ? await findChannelById(tx, channelId) : undefined;
      if (!channel) {
        log.warn({ channelId, messages: messages.length }, 'inbound messages for an unknown channel ignored');
        continue;
      }
      let keywords = keywordsOf.get(channel.company_id);
      if (!keywords) {
        keywords = (await findOptOutKeywords(tx, channel.company_id)) ?? DEFAULT_OPT_OUT_KEYWORDS;
        keywordsOf.set(channel.company_id, keywords);
      }
      for (const message of messages) {
        const text = replyText(message);
        const keyword = text === null ? null : matchKeyword(text, keywords);
        if (!keyword || typeof message.from !== 'string') continue;
        const phone = normalizePhone(message.from);
        if (!phone.ok) continue;
        const list = byCompany.get(channel.company_id) ?? new Map<string, NewOptOut>();
        byCompany.set(channel.company_id, list);
        if (!list.has(phone.e164)) list.set(phone.e164, { phone_number: phone.e164, source: 'inbound_keyword', keyword, channel_id: channel.id });
      }
    }
    for (const [companyId, list] of byCompany) {
      const added = await insertOptOuts(tx, companyId, [...list.values()]);
      log.info({ companyId, replies: list.size, added }, 'opt-out keyword replies applied');
    }
  };
}
