/**
 * Inbound customer messages (`field: messages`, `value.messages[]`), for the company that owns the receiving channel
 * (`value.metadata.phone_number_id`). The sender is named by `from` (the phone number, only when it may be shared)
 * and/or `from_user_id` (the BSUID, always since April 2026), with the matching `contacts[]` entry:
 *
 * - a reply that is exactly one of the company's opt-out keywords (case-insensitive, trimmed, `domain/opt-outs.ts`)
 *   puts the sender on the list: by phone number, by BSUID, or both;
 * - a message naming both links them (`recipient_links`), and the answer to a REQUEST_CONTACT_INFO button (a
 *   `contacts` message with origin `contact_request`) links the shared number to the sender's BSUID;
 * - a `system` message `user_changed_user_id` moves the old BSUID to the new one (recipient-events.ts).
 *
 * It runs in the webhook inbox's transaction, after the status handler, so a stored STOP is applied exactly once or
 * retried; it is never lost. Anything else (other replies, media, reactions, an unknown channel) changes nothing.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { DEFAULT_OPT_OUT_KEYWORDS, matchKeyword, replyText, type InboundMessage } from '../domain/opt-outs.js';
import { contactFor, contactRequestPhone, inboundSender, systemUserIdChange, type ContactsMessage, type InboundIds } from '../domain/webhook-recipients.js';
import { findOptOutKeywords, insertOptOuts, type NewOptOut } from '../store/opt-outs.js';
import { upsertRecipientLinks, type NewRecipientLink } from '../store/recipient-links.js';
import type { Database } from '../store/schema.js';
import { applyUserIdChange, companyOfChange } from './recipient-events.js';
import type { ChangeHandler } from './webhook-inbox.js';
import { changePhoneNumberId } from '../domain/webhook-channels.js';

type Inbound = InboundMessage & InboundIds & ContactsMessage & { system?: Record<string, unknown> };

/** One company's work of a batch: links, then opt-outs (each identifier once). */
interface CompanyWork {
  links: NewRecipientLink[];
  optOuts: NewOptOut[];
  phones: Set<string>;
  userIds: Set<string>;
}

/** The handler for inbound messages of `field: messages` (statuses are left to the status handler). */
export function inboundMessageHandler(log: Pick<Logger, 'info' | 'warn'>, db: Kysely<Database>): ChangeHandler {
  return async ({ tx, changes, afterCommit }) => {
    const keywordsOf = new Map<string, readonly string[]>();
    const work = new Map<string, CompanyWork>();
    for (const { value } of changes) {
      const messages = Array.isArray(value.messages) ? (value.messages as Inbound[]) : [];
      if (messages.length === 0) continue;
      const owner = await companyOfChange(tx, value);
      if (!owner) {
        log.warn({ channelId: changePhoneNumberId(value), messages: messages.length }, 'inbound messages for an unknown channel ignored');
        continue;
      }
      const { companyId, channelId } = owner;
      let keywords = keywordsOf.get(companyId);
      if (!keywords) {
        keywords = (await findOptOutKeywords(tx, companyId)) ?? DEFAULT_OPT_OUT_KEYWORDS;
        keywordsOf.set(companyId, keywords);
      }
      const w = work.get(companyId) ?? { links: [], optOuts: [], phones: new Set<string>(), userIds: new Set<string>() };
      work.set(companyId, w);
      for (const message of messages) {
        if (typeof message !== 'object' || message === null) continue;
        const moved = systemUserIdChange(message);
        if (moved) {
          await applyUserIdChange({ tx, afterCommit }, db, log, companyId, moved);
          continue;
        }
        const sender = inboundSender(message, contactFor(value.contacts, { userId: message.from_user_id, phone: message.from }));
        const link = { parent_user_id: sender.parentUserId, username: sender.username };
        if (sender.phone && sender.userId) w.links.push({ phone_number: sender.phone, user_id: sender.userId, ...link, source: 'inbound_message' });
        const shared = contactRequestPhone(message);
        if (shared && sender.userId) w.links.push({ phone_number: shared, user_id: sender.userId, ...link, source: 'contact_request' });
        const text = replyText(message);
        const keyword = text === null ? null : matchKeyword(text, keywords);
        if (!keyword || (!sender.phone && !sender.userId)) continue;
        if ((sender.phone && w.phones.has(sender.phone)) || (sender.userId && w.userIds.has(sender.userId))) continue;
        if (sender.phone) w.phones.add(sender.phone);
        if (sender.userId) w.userIds.add(sender.userId);
        w.optOuts.push({ phone_number: sender.phone, user_id: sender.userId, source: 'inbound_keyword', keyword, channel_id: channelId });
      }
    }
    for (const [companyId, w] of work) {
      await upsertRecipientLinks(tx, companyId, w.links);
      const added = await insertOptOuts(tx, companyId, w.optOuts);
      if (w.optOuts.length) log.info({ companyId, replies: w.optOuts.length, added }, 'opt-out keyword replies applied');
    }
  };
}
