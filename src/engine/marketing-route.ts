/**
 * One channel sender's choice between `/messages` and the Marketing Messages API (`/marketing_messages`), and the
 * network call it makes. A MARKETING template goes to the marketing endpoint while the channel's setting is on, with its
 * bulk send's TTL; everything else goes to `/messages`.
 *
 * At most once: the call runs inside the attempt the send path recorded before any call. When the marketing endpoint
 * refuses the row with one of its documented refusals (an answer of the network that created no message), the same row
 * goes by `/messages` in the same attempt; a crash between the two leaves the row in doubt like any call in flight
 * (settled by its status webhook or as OUTCOME_UNKNOWN), never sent twice. A refusal of the account (not onboarded)
 * switches the channel's setting off with its reason, so the next rows go straight to `/messages`.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { marketingRefusalOf, NOT_ONBOARDED_REASON, usesMarketingMessages } from '../domain/marketing-messages.js';
import { NetworkError, type ChannelCredentials, type NetworkPort, type SendMessageResult, type TemplateSendPayload } from '../network/port.js';
import { findBulkSendTtl } from '../store/bulk-sends.js';
import { setChannelMarketingMessages, switchOffMarketingMessages, type ChannelRow } from '../store/channels.js';
import { AppError } from '../errors.js';
import type { DueMessageRow } from '../store/message-moves.js';
import type { Database } from '../store/schema.js';
import { findTemplateCategory } from '../store/templates.js';

/** What the route needs. */
export interface MarketingRouteDeps {
  db: Kysely<Database>;
  network: NetworkPort;
  log: Logger;
  channelId: string;
  /** Paces the fallback call like any other (the refused call already took this row's token). */
  takeToken(): Promise<void>;
  /** The channel row changed (the setting was switched off): read it again. */
  channelChanged(): void;
}

/** Sends a sender's rows through the endpoint each needs, falling back to `/messages` on a refusal. */
export class MarketingRoute {
  /** Template id → category (read once per sender run). */
  private readonly categories = new Map<string, Promise<string | undefined>>();
  /** Bulk send id → its TTL. */
  private readonly ttls = new Map<string, Promise<number | null>>();
  /** Templates the marketing endpoint refused for this run (not MARKETING there, or not synced yet). */
  private readonly refusedTemplates = new Set<string>();
  /** Set once the account was refused: the rest of this run goes by `/messages`. */
  private accountRefused = false;

  constructor(private readonly deps: MarketingRouteDeps) {}

  /** Sends the row's payload (biz_opaque_callback_data already set) through its endpoint. */
  async send(creds: ChannelCredentials, message: DueMessageRow, payload: TemplateSendPayload, channelEnabled: boolean): Promise<SendMessageResult> {
    const { network } = this.deps;
    if (!(await this.usesMarketing(message, channelEnabled))) return network.sendMessage(creds, payload);
    const ttl = message.send_wizard_id ? await this.ttlOf(message.send_wizard_id) : null;
    try {
      return await network.sendMarketingMessage(creds, ttl === null ? payload : { ...payload, message_send_ttl_seconds: ttl });
    } catch (error) {
      const refusal = error instanceof NetworkError && error.kind === 'graph' ? marketingRefusalOf(error.graph?.code) : null;
      if (!refusal) throw error;
      if (refusal === 'not_onboarded') await this.accountWasRefused();
      else this.refusedTemplates.add(message.template_id);
      await this.deps.takeToken();
      return network.sendMessage(creds, payload);
    }
  }

  private async usesMarketing(message: DueMessageRow, channelEnabled: boolean): Promise<boolean> {
    if (!channelEnabled || this.accountRefused || this.refusedTemplates.has(message.template_id)) return false;
    let category = this.categories.get(message.template_id);
    if (!category) this.categories.set(message.template_id, (category = findTemplateCategory(this.deps.db, message.template_id)));
    return usesMarketingMessages((await category) ?? '', true);
  }

  private ttlOf(bulkSendId: string): Promise<number | null> {
    let ttl = this.ttls.get(bulkSendId);
    if (!ttl) this.ttls.set(bulkSendId, (ttl = findBulkSendTtl(this.deps.db, bulkSendId)));
    return ttl;
  }

  /** Switches the channel's setting off with its reason (once), and sends the rest of this run by `/messages`. */
  private async accountWasRefused(): Promise<void> {
    if (this.accountRefused) return;
    this.accountRefused = true;
    try {
      if (await switchOffMarketingMessages(this.deps.db, this.deps.channelId, NOT_ONBOARDED_REASON)) {
        this.deps.log.warn({ channelId: this.deps.channelId }, 'Marketing Messages API refused the account (134102): setting switched off, sending by /messages');
      }
    } catch (err) {
      this.deps.log.error({ err, channelId: this.deps.channelId }, 'switching the Marketing Messages setting off failed');
    }
    this.deps.channelChanged();
  }
}

/** Turns a company's channel's setting on or off (the user's choice clears a reason the service gave). */
export async function setMarketingMessages(db: Kysely<Database>, companyId: string, channelId: string, enabled: boolean): Promise<ChannelRow> {
  const row = await setChannelMarketingMessages(db, companyId, channelId, enabled);
  if (!row) throw new AppError('CHANNEL_NOT_FOUND', `Channel ${channelId} was not found.`, { field: 'channel_id' });
  return row;
}

/** The setting as the API and the CLI show it. */
export function marketingMessagesOf(row: ChannelRow) {
  return {
    enabled: row.marketing_messages_enabled,
    disabled_reason: row.marketing_messages_disabled_reason,
    disabled_at: row.marketing_messages_disabled_at ? row.marketing_messages_disabled_at.toISOString() : null,
  };
}
