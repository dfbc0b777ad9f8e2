/**
 * The webhook inbox: verified bodies are stored first (so an accepted event is never lost), then applied
 * by change `field` in a transaction that also marks the event applied (so it is applied at most once).
 * Events left unapplied by a crash are picked up at start and by the periodic sweep. Instances share the
 * inbox through the database: `for update skip locked` keeps two of them off the same event.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import {
  claimWebhookEvent,
  insertWebhookEvent,
  listPendingWebhookEvents,
  markWebhookEventApplied,
  markWebhookEventFailed,
} from '../store/webhook-events.js';
import type { Database } from '../store/schema.js';

/** What a change handler gets: the transaction, the entry id (the WABA) and the change value. */
export interface ChangeContext {
  tx: Transaction<Database>;
  entryId: string;
  value: Record<string, unknown>;
  /** Work to run after the event's transaction commits (e.g. a network refresh). */
  afterCommit(task: () => Promise<void>): void;
}

/** Applies one `changes[]` item of a given `field`. */
export type ChangeHandler = (ctx: ChangeContext) => Promise<void>;

/** Inbox dependencies. */
export interface WebhookInboxDeps {
  db: Kysely<Database>;
  log: Logger;
  handlers: Record<string, ChangeHandler>;
  /** Attempts before an event that keeps failing is parked as FAILED. */
  maxAttempts?: number;
  /** Sweep interval for events left behind (crash, other instance, transient failure). */
  sweepMs?: number;
}

/** The webhook inbox. */
export class WebhookInbox {
  /** Webhook POSTs refused for a missing or wrong signature since this process started. */
  rejected = 0;
  private draining: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: WebhookInboxDeps) {}

  /** Stores a verified raw body and schedules it to be applied; returns the event id. */
  async receive(rawBody: string): Promise<string> {
    const id = await insertWebhookEvent(this.deps.db, rawBody);
    void this.drain();
    return id;
  }

  /** Applies every pending event; resolves when none is left (concurrent calls share one run). */
  drain(): Promise<void> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      try {
        do {
          this.again = false;
          // One pass in id order: an event that fails is retried by a later sweep, not in a tight loop.
          let cursor = '0';
          for (;;) {
            const last = await this.applyBatch(100, cursor);
            if (last === null) break;
            cursor = last;
          }
        } while (this.again);
      } catch (error) {
        this.deps.log.error({ err: error }, 'webhook inbox drain failed');
      } finally {
        this.draining = null;
      }
    })();
    return this.draining;
  }

  /** Starts the sweep (and recovers what a crash left). */
  start(): void {
    void this.drain();
    this.timer = setInterval(() => void this.drain(), this.deps.sweepMs ?? 2000);
    this.timer.unref();
  }

  /** Stops the sweep and waits for a running drain. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.draining;
  }

  /** Applies up to `limit` pending events after `cursor`; returns the last id seen, or null when none. */
  private async applyBatch(limit: number, cursor: string): Promise<string | null> {
    const pending = await listPendingWebhookEvents(this.deps.db, cursor, limit);
    // Only peeked at here; each event is claimed (row lock) inside its own transaction.
    for (const event of pending) await this.applyOne(event);
    return pending.length > 0 ? pending[pending.length - 1].id : null;
  }

  private async applyOne(event: { id: string; body: string }): Promise<void> {
    const tasks: Array<() => Promise<void>> = [];
    try {
      await this.deps.db.transaction().execute(async (tx) => {
        if (!(await claimWebhookEvent(tx, event.id))) return; // another instance has it or applied it
        await this.applyBody(tx, event.body, tasks);
        await markWebhookEventApplied(tx, event.id);
      });
    } catch (error) {
      tasks.length = 0;
      this.deps.log.warn({ err: error, eventId: event.id }, 'webhook event failed to apply');
      await markWebhookEventFailed(this.deps.db, event.id, String(error), this.deps.maxAttempts ?? 10);
    }
    for (const task of tasks) {
      task().catch((error) => this.deps.log.warn({ err: error }, 'webhook after-commit task failed'));
    }
  }

  private async applyBody(tx: Transaction<Database>, body: string, tasks: Array<() => Promise<void>>): Promise<void> {
    const parsed = JSON.parse(body) as { entry?: unknown };
    const entries = Array.isArray(parsed.entry) ? parsed.entry : [];
    for (const entry of entries as Array<{ id?: unknown; changes?: unknown }>) {
      const changes = Array.isArray(entry?.changes) ? entry.changes : [];
      for (const change of changes as Array<{ field?: unknown; value?: unknown }>) {
        const handler = typeof change?.field === 'string' ? this.deps.handlers[change.field] : undefined;
        if (!handler || typeof change.value !== 'object' || change.value === null) continue;
        await handler({
          tx,
          entryId: String(entry.id ?? ''),
          value: change.value as Record<string, unknown>,
          afterCommit: (task) => tasks.push(task),
        });
      }
    }
  }
}
