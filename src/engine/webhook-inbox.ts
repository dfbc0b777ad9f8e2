/**
 * The webhook inbox. Every verified body is stored as one row, and a POST is answered only after its row is
 * committed, so an accepted event is never lost. Two ways to apply it:
 *
 * - **Apply on receipt** (the usual way, while the database keeps up): the bodies that arrive together (group
 *   commit) are stored already APPLIED and applied in the same transaction, so each row is written once and each
 *   group costs one commit. Their changes and their rows commit together or not at all.
 * - **Store first, apply after** (the fallback): when a group fails to apply (it rolls back whole), when the last
 *   group took longer than the budget (the database is busy: answer fast and apply in the background), or while
 *   stored events wait to be applied (so they keep their arrival order), bodies are stored as RECEIVED and the
 *   drain applies them in batches: one transaction locks up to 100 stored events, hands every change to its
 *   field's handler (the status handler gets all statuses of the batch at once) and marks them applied. A batch
 *   that fails is retried event by event, so one bad event cannot hold the others back.
 *
 * Events left unapplied by a crash are picked up at start and by the periodic sweep. Instances share the inbox
 * through the database: `for update skip locked` keeps two of them off the same stored event.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import {
  claimWebhookEvents,
  insertAppliedWebhookEvents,
  insertWebhookEvent,
  insertWebhookEvents,
  listPendingWebhookEvents,
  markWebhookEventFailed,
  markWebhookEventsApplied,
} from '../store/webhook-events.js';
import type { Database } from '../store/schema.js';
import { textMayHoldNul } from '../domain/nul.js';

/** One `changes[]` item: the entry id (the WABA) and the change value. */
export interface Change {
  entryId: string;
  value: Record<string, unknown>;
  /** The body's text holds no NUL (`textMayHoldNul`): no string of `value` does, and none needs looking for. */
  nulFree: boolean;
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
  /**
   * Apply on receipt while a group's transaction takes at most this long (ms); a slower one sends the next bodies
   * the store-first way until the drain has caught up. 0: always store first.
   */
  applyOnReceiptBudgetMs?: number;
}

/** Bodies stored in one statement at most (and about this many characters at most). */
const STORE_BATCH = 100;
const STORE_BATCH_CHARS = 4_000_000;
/** The default budget of a group applied on receipt: POSTs wait for the group before theirs and their own. */
const APPLY_ON_RECEIPT_BUDGET_MS = 500;

/** A received body waiting for its group. */
interface Received {
  body: string;
  /** The body as the route parsed it (parsed here when absent). */
  parsed?: unknown;
  resolve: (id: string) => void;
  reject: (error: unknown) => void;
}

/** The webhook inbox. */
export class WebhookInbox {
  /** Webhook POSTs refused for a missing or wrong signature since this process started. */
  rejected = 0;
  /** Insert statements that stored received bodies since this process started (several bodies share one). */
  storeStatements = 0;
  /** Bodies applied in the transaction that stored them, and bodies stored to be applied after. */
  appliedOnReceipt = 0;
  storedFirst = 0;
  private toStore: Received[] = [];
  private storing = false;
  private draining: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  /**
   * Stored events may wait to be applied (until a drain run ends after the store-first path was last taken; true
   * at first, for what a crash left): new bodies are then stored first too, so they apply after the older ones.
   */
  private backlog = true;

  constructor(private readonly deps: WebhookInboxDeps) {}

  /**
   * Takes a verified raw body (and, when the caller parsed it already, its parsed form); resolves with the event
   * id once the body is committed (the caller answers 200 only then), applied with it or stored to be applied
   * after. Group commit: a body that arrives while a group is running waits for it and goes with the others that
   * arrived meanwhile, in one statement and one commit; a lone body goes at once.
   */
  async receive(rawBody: string, parsed?: unknown): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      this.toStore.push({ body: rawBody, parsed, resolve, reject });
      if (!this.storing) void this.storeQueued();
    });
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
        const group = this.toStore.splice(0, n);
        if (!this.backlog && (this.deps.applyOnReceiptBudgetMs ?? APPLY_ON_RECEIPT_BUDGET_MS) > 0 && (await this.applyOnReceipt(group))) continue;
        await this.storeFirst(group);
      }
    } finally {
      this.storing = false;
    }
  }

  /**
   * Stores the group already applied and applies it, in one transaction. True when the group is settled (committed
   * and answered, or refused because its commit failed: then it may or may not have committed, so it is neither
   * stored again nor answered 200, and the network retries it); false when it rolled back before its commit, so
   * nothing of it is stored and it goes the store-first way.
   */
  private async applyOnReceipt(group: Received[]): Promise<boolean> {
    const started = performance.now();
    const tasks: Array<() => Promise<void>> = [];
    let ids: string[] = [];
    let committing = false;
    try {
      await this.deps.db.transaction().execute(async (tx) => {
        this.storeStatements += 1;
        ids = await insertAppliedWebhookEvents(tx, group.map((g) => g.body));
        await this.applyChanges(tx, group.map((g) => ({ text: g.body, parsed: g.parsed ?? JSON.parse(g.body) })), tasks);
        committing = true;
      });
    } catch (error) {
      if (!committing) {
        this.deps.log.warn({ err: error, bodies: group.length }, 'webhook bodies failed to apply on receipt; stored to be applied after');
        return false;
      }
      this.deps.log.error({ err: error, bodies: group.length }, 'webhook commit failed; not answered, the network retries');
      for (const g of group) g.reject(error);
      return true;
    }
    this.appliedOnReceipt += group.length;
    group.forEach((g, i) => g.resolve(ids[i]));
    this.runAfterCommit(tasks);
    const ms = performance.now() - started;
    if (ms > (this.deps.applyOnReceiptBudgetMs ?? APPLY_ON_RECEIPT_BUDGET_MS)) {
      // The database is busy: answer the next bodies after their store alone, and apply them in the background.
      this.deps.log.debug({ ms: Math.round(ms), bodies: group.length }, 'webhook group slower than its budget; storing first');
      this.backlog = true;
    }
    return true;
  }

  /** Stores the group as RECEIVED (one statement; each body alone when that fails) and has the drain apply it. */
  private async storeFirst(group: Received[]): Promise<void> {
    const stored = (n: number) => {
      this.storedFirst += n;
      this.backlog = true;
    };
    try {
      this.storeStatements += 1;
      const ids = await insertWebhookEvents(this.deps.db, group.map((b) => b.body));
      stored(group.length);
      group.forEach((b, i) => b.resolve(ids[i]));
    } catch (error) {
      if (group.length === 1) {
        group[0].reject(error);
      } else {
        // One body the database refuses must not fail the others: each is stored (or refused) on its own.
        for (const b of group) {
          this.storeStatements += 1;
          await insertWebhookEvent(this.deps.db, b.body).then((id) => {
            stored(1);
            b.resolve(id);
          }, b.reject);
        }
      }
    }
    void this.drain();
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
        // Every event stored first until now has been tried: new bodies may be applied on receipt again.
        this.backlog = false;
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
    const ids = await listPendingWebhookEvents(this.deps.db, cursor, limit);
    if (ids.length === 0) return null;
    try {
      await this.applyStored(ids);
    } catch (error) {
      this.deps.log.warn({ err: error, count: ids.length }, 'webhook batch failed; applying its events one by one');
      for (const id of ids) {
        try {
          await this.applyStored([id]);
        } catch (single) {
          this.deps.log.warn({ err: single, eventId: id }, 'webhook event failed to apply');
          await markWebhookEventFailed(this.deps.db, id, String(single), this.deps.maxAttempts ?? 10);
        }
      }
    }
    return ids[ids.length - 1];
  }

  /** Locks the stored events still pending among `ids`, applies them and marks them applied, in one transaction. */
  private async applyStored(ids: string[]): Promise<void> {
    const tasks: Array<() => Promise<void>> = [];
    await this.deps.db.transaction().execute(async (tx) => {
      const events = await claimWebhookEvents(tx, ids); // another instance may hold or have applied some
      if (events.length === 0) return;
      await this.applyChanges(tx, events.map((e) => ({ text: e.body, parsed: JSON.parse(e.body) as unknown })), tasks);
      await markWebhookEventsApplied(tx, events.map((e) => e.id));
    });
    this.runAfterCommit(tasks);
  }

  /** Hands every change of these bodies to its field's handler (each handler once, with its changes in order). */
  private async applyChanges(tx: Transaction<Database>, bodies: Array<{ text: string; parsed: unknown }>, tasks: Array<() => Promise<void>>): Promise<void> {
    const byField = new Map<string, Change[]>();
    for (const body of bodies) {
      for (const [field, change] of changesOf(body.parsed, !textMayHoldNul(body.text))) {
        if (!this.deps.handlers[field]) continue;
        const list = byField.get(field);
        if (list) list.push(change);
        else byField.set(field, [change]);
      }
    }
    for (const [field, changes] of byField) {
      await this.deps.handlers[field]({ tx, changes, afterCommit: (task) => tasks.push(task) });
    }
  }

  private runAfterCommit(tasks: Array<() => Promise<void>>): void {
    for (const task of tasks) {
      task().catch((error) => this.deps.log.warn({ err: error }, 'webhook after-commit task failed'));
    }
  }
}

/** The (field, change) pairs of a parsed body. */
function changesOf(body: unknown, nulFree: boolean): Array<[string, Change]> {
  const parsed = (typeof body === 'object' && body !== null ? body : {}) as { entry?: unknown };
  const out: Array<[string, Change]> = [];
  for (const entry of (Array.isArray(parsed.entry) ? parsed.entry : []) as Array<{ id?: unknown; changes?: unknown }>) {
    for (const change of (Array.isArray(entry?.changes) ? entry.changes : []) as Array<{ field?: unknown; value?: unknown }>) {
      if (typeof change?.field !== 'string' || typeof change.value !== 'object' || change.value === null) continue;
      out.push([change.field, { entryId: String(entry.id ?? ''), value: change.value as Record<string, unknown>, nulFree }]);
    }
  }
  return out;
}
