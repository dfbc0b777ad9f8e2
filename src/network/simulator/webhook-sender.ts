/**
 * Posts signed webhooks to the service: batches statuses that fall due together (up to `batchSize` per
 * body), posts with bounded concurrency, retries non-2xx answers and connection errors with exponential
 * backoff for `retryWindowMs`, and never blocks a Graph request. `close()` clears every timer.
 */
import { Agent, request } from 'undici';
import { signWebhookBody } from '../../domain/webhook-signature.js';
import { SIM_WABA_ID } from './constants.js';
import type { SimChannel, SimLogger, SimWorld } from './world.js';

/** One status item of a `messages` webhook. */
export type StatusItem = Record<string, unknown>;

interface Delivery {
  payload: string;
  statuses: number;
  firstTry: number;
  attempt: number;
}

/** Sender settings. */
export interface WebhookSenderOptions {
  batchSize: number;
  retryWindowMs: number;
  concurrency: number;
}

/** The webhook sender of one simulator. */
export class WebhookSender {
  private target: { url: string; appSecret: string } | null = null;
  private statuses = new Map<string, { channel: SimChannel; items: StatusItem[] }>();
  /** The `contacts` entry of a status (a status of a failed message has none). */
  private contactOf = new WeakMap<StatusItem, Record<string, unknown>>();
  private changes: { field: string; value: unknown }[] = [];
  private queue: Delivery[] = [];
  private active = 0;
  private retryTimers = new Set<NodeJS.Timeout>();
  private readonly agent: Agent;
  private closed = false;

  constructor(
    private readonly world: SimWorld,
    private readonly log: SimLogger | undefined,
    private readonly options: WebhookSenderOptions,
  ) {
    this.agent = new Agent({ connections: options.concurrency, keepAliveTimeout: 10_000, headersTimeout: 10_000, bodyTimeout: 10_000 });
  }

  /** Where webhooks go and the app secret that signs them (null: webhooks are counted as dropped). */
  setTarget(url: string | null, appSecret = ''): void {
    this.target = url ? { url, appSecret } : null;
  }

  /** Adds a status to the next body of its channel; `contact` goes to the body's `contacts` (one per user). */
  addStatus(channel: SimChannel, item: StatusItem, contact?: Record<string, unknown>): void {
    if (contact) this.contactOf.set(item, contact);
    const batch = this.statuses.get(channel.id);
    if (batch) batch.items.push(item);
    else this.statuses.set(channel.id, { channel, items: [item] });
  }

  /** Adds a change as its own body: template status, phone number quality, or an inbound customer message. */
  addChange(field: string, value: unknown): void {
    this.changes.push({ field, value });
  }

  /** Turns what was added since the last flush into bodies and starts posting them. */
  flush(): void {
    for (const { channel, items } of this.statuses.values()) {
      for (let i = 0; i < items.length; i += this.options.batchSize) {
        const chunk = items.slice(i, i + this.options.batchSize);
        const contacts = new Map<unknown, Record<string, unknown>>();
        for (const item of chunk) {
          const contact = this.contactOf.get(item);
          if (contact) contacts.set(contact.user_id, contact);
        }
        const value = {
          messaging_product: 'whatsapp',
          metadata: { display_phone_number: channel.webhookDisplayNumber, phone_number_id: channel.id },
          ...(contacts.size ? { contacts: [...contacts.values()] } : {}),
          statuses: chunk,
        };
        this.enqueue({ object: 'whatsapp_business_account', entry: [{ id: SIM_WABA_ID, changes: [{ value, field: 'messages' }] }] }, chunk.length);
      }
    }
    this.statuses.clear();
    for (const { field, value } of this.changes) {
      const time = Math.floor(this.world.now() / 1000);
      // Inbound `messages` entries carry no `time` (Meta's shape); the management fields do.
      const entry = field === 'messages' ? { id: SIM_WABA_ID, changes: [{ value, field }] } : { id: SIM_WABA_ID, time, changes: [{ value, field }] };
      this.enqueue({ object: 'whatsapp_business_account', entry: [entry] }, 0);
    }
    this.changes = [];
  }

  /** Bodies waiting, being posted or waiting for a retry. */
  get pending(): number {
    return this.queue.length + this.active + this.retryTimers.size;
  }

  /** Drops everything not yet posted (reset). */
  discard(): void {
    this.statuses.clear();
    this.changes = [];
    this.queue = [];
    for (const t of this.retryTimers) clearTimeout(t);
    this.retryTimers.clear();
  }

  /** Stops posting, clears timers and closes connections. */
  async close(): Promise<void> {
    this.closed = true;
    this.discard();
    await this.agent.destroy();
  }

  private enqueue(body: unknown, statuses: number): void {
    if (!this.target) {
      this.world.stats.webhooks_dropped++;
      return;
    }
    this.queue.push({ payload: JSON.stringify(body), statuses, firstTry: Date.now(), attempt: 0 });
    this.pump();
  }

  private pump(): void {
    while (!this.closed && this.active < this.options.concurrency && this.queue.length > 0) {
      const d = this.queue.shift() as Delivery;
      this.active++;
      void this.post(d).finally(() => {
        this.active--;
        this.pump();
      });
    }
  }

  private async post(d: Delivery): Promise<void> {
    const target = this.target;
    if (!target) {
      this.world.stats.webhooks_dropped++;
      return;
    }
    let ok = false;
    try {
      const res = await request(target.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': signWebhookBody(d.payload, target.appSecret),
          'user-agent': 'facebookexternalua',
        },
        body: d.payload,
      });
      await res.body.dump();
      ok = res.statusCode >= 200 && res.statusCode < 300;
    } catch {
      ok = false;
    }
    if (this.closed) return;
    if (ok) {
      this.world.stats.webhooks_posted++;
      this.world.stats.webhook_statuses_posted += d.statuses;
      return;
    }
    this.world.stats.webhook_attempts_failed++;
    const delay = Math.min(30_000, 250 * 2 ** d.attempt);
    if (Date.now() + delay - d.firstTry > this.options.retryWindowMs) {
      this.world.stats.webhooks_failed++;
      this.log?.warn({ target: target.url, attempts: d.attempt + 1 }, 'simulator: webhook given up after the retry window');
      return;
    }
    d.attempt++;
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.queue.push(d);
      this.pump();
    }, delay);
    this.retryTimers.add(timer);
  }
}
