/**
 * What the network does after answering: message statuses by recipient rule, template reviews and phone
 * number quality updates, each delivered as a webhook through the fault knobs (delay, reorder, duplicates).
 */
import { createHash } from 'node:crypto';
import { SIM_TIER_ORDER } from './constants.js';
import type { Scheduler } from './scheduler.js';
import type { StatusItem, WebhookSender } from './webhook-sender.js';
import type { SimUser } from './users.js';
import { tierOf, type SimChannel, type SimReceived, type SimTemplate, type SimWorld } from './world.js';

const ERROR_HREF = 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/';

/** The failed-status errors of the recipient rules. */
const FAILURES = {
  131026: { code: 131026, title: 'Message undeliverable', message: 'Message undeliverable', error_data: { details: 'Message Undeliverable.' }, href: ERROR_HREF },
  131049: {
    code: 131049,
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
    message: 'This message was not delivered to maintain healthy ecosystem engagement.',
    error_data: { details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.' },
    href: ERROR_HREF,
  },
} as const;

/** The recipient rule for a number (last three digits). */
export function outcomeOf(waId: string): { outcome: SimReceived['outcome']; failure?: keyof typeof FAILURES } {
  const tail = waId.slice(-3);
  if (tail === '000') return { outcome: 'failed', failure: 131026 };
  if (tail === '001') return { outcome: 'failed', failure: 131049 };
  if (tail === '002') return { outcome: 'delivered' };
  return { outcome: 'read' };
}

/** The `contacts` entry of a sent, delivered or read status: `username` only on delivered and read. */
function statusContact(user: SimUser, toPhone: boolean, withUsername: boolean): Record<string, unknown> {
  const contact: Record<string, unknown> = {};
  if (toPhone || !user.username) contact.wa_id = user.waId;
  contact.user_id = user.userId;
  if (user.parentUserId) contact.parent_user_id = user.parentUserId;
  if (withUsername && user.username) contact.profile = { username: user.username };
  return contact;
}

/** The contact a user shares in answer to REQUEST_CONTACT_INFO: a vCard with their number. */
function sharedContact(user: SimUser, name: string): Record<string, unknown> {
  const phone = `+${user.waId}`;
  return {
    name: { formatted_name: name, first_name: name },
    phones: [{ phone, wa_id: user.waId, type: 'MOBILE' }],
    vcard: `BEGIN:VCARD\nVERSION:3.0\nFN:${name}\nTEL;type=CELL;waid=${user.waId}:${phone}\nEND:VCARD`,
  };
}

/** A phone_number_quality_update change, computed from a channel's state before and after an admin change. */
export function qualityEvents(before: SimChannel, after: SimChannel): { event: string; old_limit?: string }[] {
  // The real network sends FLAGGED/UNFLAGGED/UPGRADE/DOWNGRADE (older docs) or THROUGHPUT_UPGRADE. A change of
  // quality alone has no documented event: DOWNGRADE (to RED/YELLOW) or UPGRADE (to GREEN) with the limit
  // unchanged is sent so the service re-reads the number, which it does after any such webhook.
  const events: { event: string; old_limit?: string }[] = [];
  if (after.status !== before.status) {
    if (after.status === 'FLAGGED') events.push({ event: 'FLAGGED' });
    else if (before.status === 'FLAGGED') events.push({ event: 'UNFLAGGED' });
    else events.push({ event: after.status === 'CONNECTED' ? 'UPGRADE' : 'DOWNGRADE' });
  }
  if (tierOf(after) !== tierOf(before)) {
    const up = SIM_TIER_ORDER.indexOf(tierOf(after)) > SIM_TIER_ORDER.indexOf(tierOf(before));
    events.push({ event: up ? 'UPGRADE' : 'DOWNGRADE', old_limit: tierOf(before) });
  }
  if (after.qualityRating !== before.qualityRating && events.length === 0) {
    events.push({ event: after.qualityRating === 'GREEN' ? 'UPGRADE' : 'DOWNGRADE' });
  }
  return events;
}

/** Schedules the network's reactions and hands them to the webhook sender. */
export class NetworkEvents {
  constructor(
    private readonly world: SimWorld,
    private readonly scheduler: Scheduler,
    private readonly sender: WebhookSender,
  ) {}

  /** Delivers one webhook event through the knobs: base delay, reorder jitter, maybe a second copy. */
  private deliver(add: () => void): void {
    const f = this.world.faults;
    const copies = this.world.prng.chance(f.duplicateRate) ? 2 : 1;
    for (let i = 0; i < copies; i++) {
      const delay = f.webhookDelayMs + (f.reorderWindowMs > 0 ? this.world.prng.int(f.reorderWindowMs) : 0) + i * 50;
      if (delay > 0) {
        this.scheduler.after(delay, add);
      } else {
        add();
        this.scheduler.flushSoon();
      }
    }
  }

  /**
   * The status webhooks of an accepted message, per the recipient rules, with the user's ids as Graph sends them
   * (research §9): `recipient_id` (the phone) only when the message went to a phone number, `recipient_user_id` (and
   * `recipient_parent_user_id` when parent BSUIDs are on), and a `contacts` entry (`user_id`, `wa_id` when the phone
   * may be shared, `profile.username` on delivered and read). A `failed` status has no `contacts`, and no
   * `recipient_user_id` when the message went to a phone number. `user` is absent for a BSUID nobody has: it fails.
   * `pricing` (on `sent` and `delivered`) follows the template's category, or is `marketing_lite` for a send through
   * the Marketing Messages API.
   */
  messageAccepted(channel: SimChannel, msg: SimReceived, category: string, user: SimUser | undefined): void {
    const t = this.world.timings;
    const rule = user ? outcomeOf(msg.to) : { outcome: 'failed' as const, failure: 131026 as const };
    const toPhone = msg.recipient === undefined;
    const emit = (status: string, extra: StatusItem) => {
      const item: StatusItem = { id: msg.wamid, status, timestamp: String(Math.floor(this.world.now() / 1000)) };
      if (toPhone) item.recipient_id = msg.to;
      const failed = status === 'failed';
      if (!(failed && toPhone)) {
        item.recipient_user_id = user?.userId ?? msg.recipient;
        if (user?.parentUserId) item.recipient_parent_user_id = user.parentUserId;
      }
      if (msg.biz_opaque_callback_data !== undefined) item.biz_opaque_callback_data = msg.biz_opaque_callback_data;
      Object.assign(item, extra);
      const contact = user && !failed ? statusContact(user, toPhone, status !== 'sent') : undefined;
      this.deliver(() => this.sender.addStatus(channel, item, contact));
    };
    if (rule.failure) {
      const failure = FAILURES[rule.failure];
      this.scheduler.after(t.failedDelayMs, () => emit('failed', { errors: [structuredClone(failure)] }));
      return;
    }
    const kind = category.toLowerCase();
    const conversationId = createHash('md5').update(`${channel.id}:${msg.to}:${Math.floor(this.world.now() / 86_400_000)}`).digest('hex');
    // Meta's example of a Marketing Messages API status carries no `type` (MM Lite get-started page).
    const pricing = () => (kind === 'marketing_lite'
      ? { billable: true, pricing_model: 'PMP', category: kind }
      : { billable: true, pricing_model: 'PMP', type: 'regular', category: kind });
    this.scheduler.after(t.sentDelayMs, () => {
      const expires = String(Math.floor(this.world.now() / 1000) + 86_400);
      emit('sent', { conversation: { id: conversationId, expiration_timestamp: expires, origin: { type: kind } }, pricing: pricing() });
    });
    this.scheduler.after(t.deliveredDelayMs, () =>
      emit('delivered', { conversation: { id: conversationId, origin: { type: kind } }, pricing: pricing() }),
    );
    if (rule.outcome === 'read') this.scheduler.after(t.readDelayMs, () => emit('read', {}));
  }

  /**
   * A customer's message to a channel (`field: messages`, `value.messages[]`, Meta's inbound shape): a text, a tap
   * on a template's quick-reply button (`type: button`), or the answer to a REQUEST_CONTACT_INFO button (`type:
   * contacts`, `origin: contact_request`, the user's number in a vCard). The sender is named by `from_user_id` and
   * `contacts[].user_id` always, by `from` and `wa_id` only when the user has no username (a user with a username
   * withholds the number). Delivered through the knobs like every webhook.
   */
  inboundMessage(channel: SimChannel, user: SimUser, text: string, kind: 'text' | 'button' | 'contact_request', name: string): string {
    const wamid = this.world.nextWamid(user.waId);
    const message: Record<string, unknown> = {};
    if (!user.username) message.from = user.waId;
    message.from_user_id = user.userId;
    if (user.parentUserId) message.from_parent_user_id = user.parentUserId;
    Object.assign(message, { id: wamid, timestamp: String(Math.floor(this.world.now() / 1000)) });
    if (kind === 'text') Object.assign(message, { type: 'text', text: { body: text } });
    else if (kind === 'button') Object.assign(message, { type: 'button', button: { payload: text, text } });
    else Object.assign(message, { type: 'contacts', origin: 'contact_request', contacts: [sharedContact(user, name)] });
    const contact: Record<string, unknown> = { profile: user.username ? { name, username: user.username } : { name } };
    if (!user.username) contact.wa_id = user.waId;
    contact.user_id = user.userId;
    if (user.parentUserId) contact.parent_user_id = user.parentUserId;
    const value = {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: channel.webhookDisplayNumber, phone_number_id: channel.id },
      contacts: [contact],
      messages: [message],
    };
    this.world.stats.inbound_messages++;
    this.deliver(() => this.sender.addChange('messages', value));
    return wamid;
  }

  /**
   * A user's BSUID changed: a `system` message of type `user_changed_user_id` on the `messages` field with the previous
   * and the new ids (Meta's system messages reference, Aug 2026; no `contacts`, and no phone number).
   */
  userIdChanged(channel: SimChannel, before: SimUser, after: SimUser): string {
    const wamid = this.world.nextWamid(after.waId);
    const system: Record<string, unknown> = {
      body: `User ${after.username ?? 'A WhatsApp user'} changed their business-scoped user ID`,
      type: 'user_changed_user_id',
      user_id: after.userId,
      previous_user_id: before.userId,
    };
    if (after.parentUserId) Object.assign(system, { parent_user_id: after.parentUserId, previous_parent_user_id: before.parentUserId });
    const value = {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: channel.webhookDisplayNumber, phone_number_id: channel.id },
      messages: [{ from_user_id: after.userId, id: wamid, timestamp: String(Math.floor(this.world.now() / 1000)), type: 'system', system }],
    };
    this.deliver(() => this.sender.addChange('messages', value));
    return wamid;
  }

  /**
   * A user's BSUID changed, as the `user_id_update` field: `value.user_id_update[]` with `user_id: {previous,
   * current}` (and `parent_user_id` when parent BSUIDs are on), and `wa_id` only when the user has no username. The
   * shape is the reading of test/fixtures/built-2026/README.md (Meta publishes the field, BSPs forward it unparsed).
   */
  userIdUpdated(channel: SimChannel, before: SimUser, after: SimUser): void {
    const item: Record<string, unknown> = {};
    if (!after.username) item.wa_id = after.waId;
    Object.assign(item, { detail: "The user's business-scoped user ID changed", user_id: { previous: before.userId, current: after.userId } });
    if (after.parentUserId) item.parent_user_id = { previous: before.parentUserId, current: after.parentUserId };
    item.timestamp = String(Math.floor(this.world.now() / 1000));
    const value = {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: channel.webhookDisplayNumber, phone_number_id: channel.id },
      user_id_update: [item],
    };
    this.deliver(() => this.sender.addChange('user_id_update', value));
  }

  /**
   * A user stopped or resumed marketing messages (Meta's `user_preferences` reference: category
   * `marketing_messages`, value `stop` / `resume`), with the 2026 ids: `user_id` always, `wa_id` only when the user
   * has no username.
   */
  userPreference(channel: SimChannel, user: SimUser, value: 'stop' | 'resume', name: string): void {
    const contact: Record<string, unknown> = { profile: user.username ? { name, username: user.username } : { name } };
    if (!user.username) contact.wa_id = user.waId;
    contact.user_id = user.userId;
    const pref: Record<string, unknown> = {};
    if (!user.username) pref.wa_id = user.waId;
    Object.assign(pref, {
      user_id: user.userId,
      detail: value === 'stop' ? 'User requested to stop marketing messages' : 'User requested to resume marketing messages',
      category: 'marketing_messages',
      value,
      timestamp: Math.floor(this.world.now() / 1000),
    });
    const change = {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: channel.webhookDisplayNumber, phone_number_id: channel.id },
      contacts: [contact],
      user_preferences: [pref],
    };
    this.deliver(() => this.sender.addChange('user_preferences', change));
  }

  /** A `message_template_status_update` for the template's current status. */
  templateStatusChanged(template: SimTemplate, rejectionInfo?: { reason: string; recommendation: string }): void {
    const value: Record<string, unknown> = {
      event: template.status,
      message_template_id: Number(template.id),
      message_template_name: template.name,
      message_template_language: template.language.replace('_', '-'),
      reason: template.rejectedReason,
      message_template_category: template.category,
    };
    if (rejectionInfo) value.rejection_info = rejectionInfo;
    this.deliver(() => this.sender.addChange('message_template_status_update', value));
  }

  /** `phone_number_quality_update` webhooks for an admin change of a channel. */
  channelChanged(before: SimChannel, after: SimChannel): string[] {
    const events = qualityEvents(before, after);
    for (const e of events) {
      const value: Record<string, unknown> = { display_phone_number: after.webhookDisplayNumber, event: e.event };
      if (e.old_limit !== undefined) value.old_limit = e.old_limit;
      value.current_limit = tierOf(after);
      value.max_daily_conversations_per_business = tierOf(after);
      this.deliver(() => this.sender.addChange('phone_number_quality_update', value));
    }
    return events.map((e) => e.event);
  }
}
