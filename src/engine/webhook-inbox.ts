/**
 * The webhook inbox: verified bodies are stored first (so an accepted event is never lost), then applied in
 * batches: one transaction locks up to 100 stored events, hands every change to its field's handler (the
 * status handler gets all statuses of the batch at once) and marks the events applied, so each is applied at
 * most once. A batch that fails is retried event by event, so one bad event cannot hold the others back.
 * Events left unapplied by a crash are picked up at start and by the periodic sweep. Instances share the
 * inbox through the database: `for update skip locked` keeps two of them off the same event.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import {
  claimWebhookEvents,
  insertWebhookEvent,
  insertWebhookEvents,
  listPendingWebhookEvents,
  markWebhookEventFailed,
  markWebhookEventsApplied,
} from '../store/webhook-events.js';
import type { Database } from '../store/schema.js';

/** One `changes[]` item: the entry id (the WABA) and the change value. */
export interface Change {
  entryId: string;
  value: Record<string, unknown>;
}

/** What a handler gets: the transaction, the changes of its field (in arrival order) and after-commit work. */
export interface ChangeContext {
  tx: Transaction<Database>;
  changes: Change[];
  /** Work to run after the transaction commits (e.g. a network refresh). */
  afterCommit(task: () => Promise<void>): void;
}

/** Applies the changes of one `field`. */
export type ChangeHandler = (ctx: ChangeContext) => Promise<void>;

/** A handler that applies changes one at a time. */
export function perChange(apply: (ctx: { tx: Transaction<Database>; afterCommit: ChangeContext['afterCommit'] } & Change) => Promise<void>): ChangeHandler {
  return async ({ tx, changes, afterCommit }) => {
    for (const change of changes) await apply({ tx, afterCommit, ...change });
  };
}

/** Several handlers of one field, run one after the other in the same transaction (e.g. statuses, then inbound replies). */
export function inSequence(...handlers: ChangeHandler[]): ChangeHandler {
  return async (ctx) => {
    for (const handler of handlers) await handler(ctx);
  };
}

/** Inbox dependencies. */
export interface WebhookInboxDeps {
  db: Kysely<Database>;
  log: Logger;
  handlers: Record<string, ChangeHandler>;
  /** Attempts before an event that keeps failing is parked as FAILED. */
  maxAttempts?: number;
  /** Sweep interval for events left behind (crash, other instance, transient failure). */
  sweepMs?: number;
  /** Events per transaction. */
  batchSize?: number;
}

/** Bodies stored in one statement at most (and about this many characters at most). */
const STORE_BATCH = 100;
const STORE_BATCH_CHARS = 4_000_000;

/** The webhook inbox. */
export class WebhookInbox {
  /** Webhook POSTs refused for a missing or wrong signature since this process started. */
  rejected = 0;
  /** Insert statements that stored received bodies since this process started (several bodies share one). */
  storeStatements = 0;
  private toStore: Array<{ body: string; resolve: (id: string) => void; reject: (error: unknown) => void }> = [];
  private storing = false;
  private draining: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: WebhookInboxDeps) {}

  /**
   * Stores a verified raw body and schedules it to be applied; resolves with the event id once the body is
   * committed (the caller answers 200 only then). Group commit: a body that arrives while a store is running
   * waits for it and goes with the others that arrived meanwhile, in one statement and one commit (one WAL flush
   * instead of one per POST); a lone body is stored at once.
   */
  async receive(rawBody: string): Promise<string> {
    const id = await new Promise<string>((resolve, reject) => {
      this.toStore.push({ body: rawBody, resolve, reject });
      if (!this.storing) void this.storeQueued();
    });
    void this.drain();
    return id;
  }

  private async storeQueued(): Promise<void> {
    this.storing = true;
    try {
      while (this.toStore.length > 0) {
        let chars = 0;
        let n = 0;
        while (n < this.toStore.length && n < STORE_BATCH && (n === 0 || chars + this.toStore[n].body.length <= STORE_BATCH_CHARS)) {
          chars += this.toStore[n].body.length;
          n += 1;
        }
        const batch = this.toStore.splice(0, n);
        try {
          this.storeStatements += 1;
          const ids = await insertWebhookEvents(this.deps.db, batch.map((b) => b.body));
          batch.forEach((b, i) => b.resolve(ids[i]));
        } catch (error) {
          if (batch.length === 1) {
            batch[0].reject(error);
            continue;
          }
          // One body the database refuses must not fail the others: each is stored (or refused) on its own.
          for (const b of batch) {
            this.storeStatements += 1;
            await insertWebhookEvent(this.deps.db, b.body).then(b.resolve, b.reject);
          }
        }
      }
    } finally {
      this.storing = false;
    }
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
            const last = await this.applyBatch(this.deps.batchSize ?? 100, cursor);
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
    if (pending.length === 0) return null;
    const ids = pending.map((e) => e.id);
    try {
      await this.applyInOneTransaction(ids);
    } catch (error) {
      this.deps.log.warn({ err: error, count: ids.length }, 'webhook batch failed; applying its events one by one');
      for (const id of ids) {
        try {
          await this.applyInOneTransaction([id]);
        } catch (single) {
          this.deps.log.warn({ err: single, eventId: id }, 'webhook event failed to apply');
          await markWebhookEventFailed(this.deps.db, id, String(single), this.deps.maxAttempts ?? 10);
        }
      }
    }
    return ids[ids.length - 1];
  }

  /** Locks the events still pending among `ids`, applies them and marks them applied, in one transaction. */
  private async applyInOneTransaction(ids: string[]): Promise<void> {
    const tasks: Array<() => Promise<void>> = [];
    await this.deps.db.transaction().execute(async (tx) => {
      const events = await claimWebhookEvents(tx, ids); // another instance may hold or have applied some
      if (events.length === 0) return;
      const byField = new Map<string, Change[]>();
      for (const event of events) {
        for (const [field, change] of changesOf(event.body)) {
          if (!this.deps.handlers[field]) continue;
          byField.set(field, [...(byField.get(field) ?? []), change]);
        }
      }
      for (const [field, changes] of byField) {
        await this.deps.handlers[field]({ tx, changes, afterCommit: (task) => tasks.push(task) });
      }
      await markWebhookEventsApplied(tx, events.map((e) => e.id));
    });
    for (const task of tasks) {
      task().catch((error) => this.deps.log.warn({ err: error }, 'webhook after-commit task failed'));
    }
  }
}

/** The (field, change) pairs of a stored body. */
function changesOf(body: string): Array<[string, Change]> {
  const parsed = JSON.parse(body) as { entry?: unknown };
  const out: Array<[string, Change]> = [];
  for (const entry of (Array.isArray(parsed.entry) ? parsed.entry : []) as Array<{ id?: unknown; changes?: unknown }>) {
    for (const change of (Array.isArray(entry?.changes) ? entry.changes : []) as Array<{ field?: unknown; value?: unknown }>) {
      if (typeof change?.field !== 'string' || typeof change.value !== 'object' || change.value === null) continue;
      out.push([change.field, { entryId: String(entry.id ?? ''), value: change.value as Record<string, unknown> }]);
    }
  }
  return out;
}
