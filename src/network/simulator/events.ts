/**
 * What the network does after answering: message statuses by recipient rule, template reviews and phone
 * number quality updates, each delivered as a webhook through the fault knobs (delay, reorder, duplicates).
 */
import { createHash } from 'node:crypto';
import { SIM_TIER_ORDER } from './constants.js';
import type { Scheduler } from './scheduler.js';
import type { StatusItem, WebhookSender } from './webhook-sender.js';
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

  /** The status webhooks of an accepted message, per the recipient rules. */
  messageAccepted(channel: SimChannel, msg: SimReceived, category: string): void {
    const t = this.world.timings;
    const rule = outcomeOf(msg.to);
    const emit = (status: string, extra: StatusItem) => {
      const item: StatusItem = {
        id: msg.wamid, status, timestamp: String(Math.floor(this.world.now() / 1000)), recipient_id: msg.to,
      };
      if (msg.biz_opaque_callback_data !== undefined) item.biz_opaque_callback_data = msg.biz_opaque_callback_data;
      Object.assign(item, extra);
      this.deliver(() => this.sender.addStatus(channel, item));
    };
    if (rule.failure) {
      const failure = FAILURES[rule.failure];
      this.scheduler.after(t.failedDelayMs, () => emit('failed', { errors: [structuredClone(failure)] }));
      return;
    }
    const kind = category.toLowerCase();
    const conversationId = createHash('md5').update(`${channel.id}:${msg.to}:${Math.floor(this.world.now() / 86_400_000)}`).digest('hex');
    const pricing = () => ({ billable: true, pricing_model: 'PMP', type: 'regular', category: kind });
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
   * A customer's message to a channel (`field: messages`, `value.messages[]`, Meta's inbound shape): a text, or a tap
   * on a template's quick-reply button (`type: button`). Delivered through the knobs like every webhook.
   */
  inboundMessage(channel: SimChannel, from: string, text: string, kind: 'text' | 'button', name: string): string {
    const wamid = this.world.nextWamid(from);
    const message: Record<string, unknown> = { from, id: wamid, timestamp: String(Math.floor(this.world.now() / 1000)), type: kind };
    if (kind === 'text') message.text = { body: text };
    else message.button = { payload: text, text };
    const value = {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: channel.webhookDisplayNumber, phone_number_id: channel.id },
      contacts: [{ profile: { name }, wa_id: from }],
      messages: [message],
    };
    this.world.stats.inbound_messages++;
    this.deliver(() => this.sender.addChange('messages', value));
    return wamid;
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
