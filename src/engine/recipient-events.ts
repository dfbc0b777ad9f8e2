/**
 * What the network tells about a person, beyond messages: a BSUID that changed (`user_id_update`, or a `system`
 * message `user_changed_user_id`) moves the company's link, opt-out and messages to the new BSUID; a marketing
 * preference (`user_preferences`, category `marketing_messages`) stops or resumes MARKETING templates to that person
 * (an opt-out with source user_preferences that applies to MARKETING templates only, as Meta's preference does).
 * Everything runs in the webhook inbox's transaction, for the company of the channel the change names.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import { marketingPreferences, userIdUpdates, type UserIdChange } from '../domain/webhook-recipients.js';
import { findChannelById } from '../store/channels.js';
import { changePhoneNumberId } from '../domain/webhook-channels.js';
import { deleteMarketingStops, insertOptOuts, moveOptOutUserId, type NewOptOut } from '../store/opt-outs.js';
import { moveMessagesUserId, moveRecipientLink, upsertRecipientLinks } from '../store/recipient-links.js';
import type { Database } from '../store/schema.js';
import type { ChangeContext, ChangeHandler } from './webhook-inbox.js';

/** The company owning the channel a change names (`value.metadata.phone_number_id`), or undefined. */
export async function companyOfChange(tx: Transaction<Database>, value: Record<string, unknown>): Promise<{ companyId: string; channelId: string } | undefined> {
  const channelId = changePhoneNumberId(value);
  const channel = channelId !== null ? await findChannelById(tx, channelId) : undefined;
  return channel ? { companyId: channel.company_id, channelId: channel.id } : undefined;
}

/**
 * Applies a BSUID change for a company: the link and the opt-out move in the transaction; the messages too, except
 * rows another transaction holds (this one may hold message rows already, so it must not wait for more: lock order,
 * src/store/README.md); those follow after the commit, in a statement of their own.
 */
export async function applyUserIdChange(
  ctx: Pick<ChangeContext, 'tx' | 'afterCommit'>,
  db: Kysely<Database>,
  log: Pick<Logger, 'info' | 'warn'>,
  companyId: string,
  change: UserIdChange,
): Promise<void> {
  const linked = await moveRecipientLink(ctx.tx, companyId, change.from, change.to, change.parentUserId);
  const optOut = await moveOptOutUserId(ctx.tx, companyId, change.from, change.to);
  const messages = await moveMessagesUserId(ctx.tx, companyId, change.from, change.to, change.parentUserId, true);
  ctx.afterCommit(async () => {
    const rest = await moveMessagesUserId(db, companyId, change.from, change.to, change.parentUserId);
    if (rest > 0) log.info({ companyId, rest }, 'BSUID change: messages held at the time moved after the commit');
  });
  log.info({ companyId, linked, optOut, messages }, 'BSUID changed: link, opt-out and messages moved');
}

/** The handler for `field: user_id_update`. */
export function userIdUpdateHandler(db: Kysely<Database>, log: Pick<Logger, 'info' | 'warn'>): ChangeHandler {
  return async ({ tx, changes, afterCommit }) => {
    for (const { value } of changes) {
      const updates = userIdUpdates(value);
      if (updates.length === 0) continue;
      const owner = await companyOfChange(tx, value);
      if (!owner) {
        log.warn({ updates: updates.length }, 'user_id_update for an unknown channel ignored');
        continue;
      }
      for (const change of updates) await applyUserIdChange({ tx, afterCommit }, db, log, owner.companyId, change);
    }
  };
}

/**
 * The handler for `field: user_preferences`: `stop` adds a marketing-only opt-out (source user_preferences) for the
 * person's phone number and/or BSUID and links them when both are given; `resume` removes the network's marketing
 * stops of that person (a STOP reply or the company's own entries stay).
 */
export function userPreferencesHandler(log: Pick<Logger, 'info' | 'warn'>): ChangeHandler {
  return async ({ tx, changes }) => {
    for (const { value } of changes) {
      const prefs = marketingPreferences(value);
      if (prefs.length === 0) continue;
      const owner = await companyOfChange(tx, value);
      if (!owner) {
        log.warn({ preferences: prefs.length }, 'user_preferences for an unknown channel ignored');
        continue;
      }
      // In arrival order: a stop then a resume of one person ends resumed.
      for (const { person, value: pref, detail } of prefs) {
        if (person.phone && person.userId) {
          await upsertRecipientLinks(tx, owner.companyId, [
            { phone_number: person.phone, user_id: person.userId, parent_user_id: person.parentUserId, username: person.username, source: 'inbound_message' },
          ]);
        }
        if (pref === 'stop') {
          const entry: NewOptOut = { phone_number: person.phone, user_id: person.userId, source: 'user_preferences', reason: detail, channel_id: owner.channelId, applies_to: 'marketing' };
          await insertOptOuts(tx, owner.companyId, [entry]);
        } else {
          await deleteMarketingStops(tx, owner.companyId, { phone_number: person.phone, user_id: person.userId });
        }
      }
      log.info({ companyId: owner.companyId, preferences: prefs.length }, 'marketing preferences applied');
    }
  };
}
