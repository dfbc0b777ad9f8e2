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
 * - **Held while sending**: while this process is sending (`sendingUntil`, a sustained stream of hand-offs) every
 *   body is stored first and the drain waits until the oldest one stored is `holdMs` old (or the sending stops), then
 *   applies all that are pending in one pass of large transactions: a message's statuses (`sent`, `delivered`, `read`
 *   arrive in separate bodies) that arrive within the hold become one row version instead of one each. Statuses and
 *   counters show up to `holdMs` later while a send runs; when it stops nothing is held.
 *
 * - **Lanes**: each stored body records the one channel its changes concern (none or several: no channel), and the
 *   drain runs `lanes` passes at once, each over the bodies of its share of the channels (lane 0 also those of no
 *   channel), in id order within the lane. Two lanes' transactions touch different messages and bulk sends, so a
 *   backlog (the statuses the network posts after a send) is applied by that many backends at once instead of one.
 *   A channel's bodies keep their order; bodies of different channels may be applied out of arrival order.
 *
 * Events left unapplied by a crash are picked up at start and by the periodic sweep. Instances share the inbox
 * through the database: `for update skip locked` keeps two of them off the same stored event.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import {
  claimWebhookEvents,
  highestPendingWebhookEventId,
  insertAppliedWebhookEvents,
  insertWebhookEvent,
  insertWebhookEvents,
  listPendingWebhookEvents,
  markWebhookEventFailed,
  markWebhookEventsApplied,
  type NewWebhookEvent,
  type WebhookLane,
} from '../store/webhook-events.js';
import type { Database } from '../store/schema.js';
import { textMayHoldNul } from '../domain/nul.js';
import { bodyPhoneNumberId } from '../domain/webhook-channels.js';

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
  /**
   * Work to run in the transaction after every handler: the bulk sends' counters, which the lock order takes last
   * (src/store/README.md), so a large batch holds them only for the end of its transaction.
   */
  atEnd(task: () => Promise<void>): void;
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
  /**
   * While this process is sending: until when (`performance.now()` ms) sending goes on without another hand-off;
   * -Infinity (or at most now) when it is not sending. Absent: never sending.
   */
  sendingUntil?: () => number;
  /** While sending, bodies are stored first and applied once the oldest stored is this old (ms). 0: never held. */
  holdMs?: number;
  /** Bytes of bodies per transaction of a pass over held bodies (at least one body; default 16 MB). */
  heldBatchBytes?: number;
  /**
   * Lanes of the drain: up to this many transactions apply stored bodies at once, each those of its share of the
   * channels (and lane 0 the bodies of no single channel). 1: one transaction at a time.
   */
  lanes?: number;
}

/** Bodies stored in one statement at most (and about this many characters at most). */
const STORE_BATCH = 100;
const STORE_BATCH_CHARS = 4_000_000;
/** The default budget of a group applied on receipt: POSTs wait for the group before theirs and their own. */
const APPLY_ON_RECEIPT_BUDGET_MS = 500;
/**
 * A pass over held bodies: up to this many bodies, and `heldBatchBytes` of them, per transaction (bodies of a hold
 * window mostly fit one, so a message's statuses are not split across transactions).
 */
const HELD_BATCH = 4000;
const HELD_BATCH_BYTES = 16_000_000;
/** The parsed forms of bodies stored first are kept for the drain up to this many characters of their text. */
const PARSED_CHARS = 8_000_000;

/** A received body waiting for its group. */
interface Received {
  body: string;
  /** The body as the route parsed it (parsed on receipt when absent; undefined when it is no JSON). */
  parsed?: unknown;
  /** The one channel its changes concern, null when none or several: its lane in the drain. */
  phoneNumberId: string | null;
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
  /** When the oldest body stored first since the last pass began was stored (`performance.now()`), if any. */
  private heldSince: number | null = null;
  /** Set by `stop()`: passes then take every pending body, also those stored after they began. */
  private stopping = false;
  /** Armed while held bodies wait for their window: fires when it ends (or the sending stops). */
  private holdTimer: NodeJS.Timeout | null = null;
  /** The parsed forms of bodies this process stored first, by event id (in id order), so the drain does not parse them again. */
  private readonly parsedById = new Map<string, { parsed: unknown; chars: number }>();
  private parsedChars = 0;
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
    const form = parsed ?? parsedOrUndefined(rawBody);
    return new Promise<string>((resolve, reject) => {
      this.toStore.push({ body: rawBody, parsed: form, phoneNumberId: bodyPhoneNumberId(form), resolve, reject });
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
        if (!this.backlog && !this.sending() && (this.deps.applyOnReceiptBudgetMs ?? APPLY_ON_RECEIPT_BUDGET_MS) > 0 && (await this.applyOnReceipt(group))) continue;
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
        ids = await insertAppliedWebhookEvents(tx, group.map(toStored));
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
    const stored = (ids: string[]) => {
      this.storedFirst += ids.length;
      this.backlog = true;
    };
    try {
      this.storeStatements += 1;
      const ids = await insertWebhookEvents(this.deps.db, group.map(toStored));
      stored(ids);
      group.forEach((b, i) => {
        this.keepParsed(ids[i], b);
        b.resolve(ids[i]);
      });
    } catch (error) {
      if (group.length === 1) {
        group[0].reject(error);
      } else {
        // One body the database refuses must not fail the others: each is stored (or refused) on its own.
        for (const b of group) {
          this.storeStatements += 1;
          await insertWebhookEvent(this.deps.db, toStored(b)).then((id) => {
            stored([id]);
            this.keepParsed(id, b);
            b.resolve(id);
          }, b.reject);
        }
      }
    }
    this.heldSince ??= performance.now();
    this.drainWhenDue();
  }

  /** Whether this process is sending now and bodies are held. */
  private sending(): boolean {
    return (this.deps.holdMs ?? 0) > 0 && (this.deps.sendingUntil?.() ?? -Infinity) > performance.now();
  }

  /**
   * Drains now, or, while sending, once the oldest body stored first is `holdMs` old or the sending stops (whichever
   * comes first). An armed timer fires at or before that time (the end of the sending only moves later while it goes
   * on) and looks again; a body that comes after the sending stopped drains at once.
   */
  private drainWhenDue(): void {
    const hold = this.deps.holdMs ?? 0;
    const due = this.heldSince === null || hold <= 0 ? -Infinity : Math.min(this.heldSince + hold, this.deps.sendingUntil?.() ?? -Infinity);
    const wait = due - performance.now();
    if (wait > 0) {
      if (this.holdTimer) return;
      this.holdTimer = setTimeout(() => {
        this.holdTimer = null;
        // None waits when a pass began since (it takes every body stored before it lists them).
        if (this.heldSince !== null) this.drainWhenDue();
      }, Math.ceil(wait));
      this.holdTimer.unref();
      return;
    }
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    void this.drain();
  }

  /** Keeps a stored body's parsed form for the drain (while their text stays under PARSED_CHARS in all). */
  private keepParsed(id: string, received: Received): void {
    if (received.parsed === undefined || this.parsedChars + received.body.length > PARSED_CHARS) return;
    this.parsedById.set(id, { parsed: received.parsed, chars: received.body.length });
    this.parsedChars += received.body.length;
  }

  /** Forgets the parsed forms of these events (applied, failed, or taken by another instance). */
  private forgetParsedOf(ids: string[]): void {
    for (const id of ids) {
      const kept = this.parsedById.get(id);
      if (kept === undefined) continue;
      this.parsedById.delete(id);
      this.parsedChars -= kept.chars;
    }
  }

  /** Forgets the parsed forms of events up to `lastId` (those no pass listed: applied by another instance). */
  private forgetParsed(lastId: string): void {
    const last = BigInt(lastId);
    for (const [id, kept] of this.parsedById) {
      if (BigInt(id) > last) break; // kept in id order (bodies are stored one group at a time)
      this.parsedById.delete(id);
      this.parsedChars -= kept.chars;
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
          // Bodies stored from now on wait for a window of their own (this pass may take some of them too).
          this.heldSince = null;
          const lanes = this.deps.lanes ?? 1;
          const passes = await Promise.allSettled(
            Array.from({ length: lanes }, (_, index) => this.pass(lanes > 1 ? { index, count: lanes } : null)),
          );
          for (const p of passes) if (p.status === 'rejected') throw p.reason;
          // Also the forms of events another instance applied, which no pass listed. A body stored meanwhile in a lane
          // whose pass had ended is parsed again from its text.
          const last = passes.reduce((max, p) => (p.status === 'fulfilled' && BigInt(p.value) > BigInt(max) ? p.value : max), '0');
          this.forgetParsed(last);
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

  /**
   * One pass of a lane (or of every event when `lane` is null) in id order: an event that fails is retried by a later
   * sweep, not in a tight loop. Returns the last id it listed ('0' when none).
   */
  private async pass(lane: WebhookLane | null): Promise<string> {
    // While sending, a pass takes the bodies pending when its first held transaction begins, by any process (a
    // crashed one's too); those stored since wait for a window of their own. A pass that chased every new body
    // would run for as long as the send does, applying each message's statuses as they come instead of
    // together. Read when first needed, so a sweep while nothing is sent does not pay for it.
    let upTo: string | undefined;
    let cursor = '0';
    let behind = false;
    for (;;) {
      // Large transactions while sending (a message's statuses stay together) and while the pass is behind (its
      // last transaction left bodies pending: a backlog, such as the statuses the network still posts after a
      // send, is applied many seconds of statuses at a time, so each message's merge too). Asked per
      // transaction: a pass begun just before the sending counted takes the rest of its bodies held.
      const sending = this.sending();
      const large: boolean = sending || behind;
      const bound = sending && !this.stopping ? (upTo ??= (await highestPendingWebhookEventId(this.deps.db)) ?? '0') : null;
      const batch: { last: string; more: boolean } | null = large
        ? await this.applyBatch(cursor, HELD_BATCH, this.deps.heldBatchBytes ?? HELD_BATCH_BYTES, bound, lane)
        : await this.applyBatch(cursor, this.deps.batchSize ?? 100, Infinity, null, lane);
      if (batch === null) return cursor;
      cursor = batch.last;
      behind = batch.more;
    }
  }

  /** Starts the sweep (and recovers what a crash left). */
  start(): void {
    void this.drain();
    // Held bodies are left to their window's timer.
    this.timer = setInterval(() => {
      if (!this.holdTimer) void this.drain();
    }, this.deps.sweepMs ?? 2000);
    this.timer.unref();
  }

  /** Stops the sweep and waits for a running drain (held bodies are applied now). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopping = true;
    const held = this.holdTimer !== null;
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    await this.draining;
    if (held || this.storedFirst > 0) await this.drain();
  }

  /**
   * Applies in one transaction the pending events after `cursor` (up to `upTo`), up to `limit` of them and
   * `budgetBytes` of bodies (at least one); returns the last id seen and whether more were pending, or null when none.
   */
  private async applyBatch(
    cursor: string,
    limit: number,
    budgetBytes: number,
    upTo: string | null,
    lane: WebhookLane | null,
  ): Promise<{ last: string; more: boolean } | null> {
    const pending = await listPendingWebhookEvents(this.deps.db, cursor, limit, upTo, lane);
    if (pending.length === 0) return null;
    let bytes = pending[0].bytes;
    let n = 1;
    while (n < pending.length && bytes + pending[n].bytes <= budgetBytes) bytes += pending[n++].bytes;
    const ids = pending.slice(0, n).map((p) => p.id);
    const last = await this.applyIds(ids);
    this.forgetParsedOf(ids);
    return { last, more: n < pending.length || pending.length === limit };
  }

  /** Applies these pending events in one transaction, else one by one; returns the last id. */
  private async applyIds(ids: string[]): Promise<string> {
    try {
      await this.applyStored(ids);
    } catch (error) {
      this.deps.log.warn({ err: error, count: ids.length }, 'webhook batch failed; applying its events one by one');
      for (const id of ids) {
        try {
          // Parsed again: a handler of the failed batch may have changed the kept form.
          await this.applyStored([id], true);
        } catch (single) {
          this.deps.log.warn({ err: single, eventId: id }, 'webhook event failed to apply');
          await markWebhookEventFailed(this.deps.db, id, String(single), this.deps.maxAttempts ?? 10);
        }
      }
    }
    return ids[ids.length - 1];
  }

  /** Locks the stored events still pending among `ids`, applies them and marks them applied, in one transaction. */
  private async applyStored(ids: string[], parseAgain = false): Promise<void> {
    const tasks: Array<() => Promise<void>> = [];
    await this.deps.db.transaction().execute(async (tx) => {
      const events = await claimWebhookEvents(tx, ids); // another instance may hold or have applied some
      if (events.length === 0) return;
      const parsed = (e: { id: string; body: string }) => (parseAgain ? undefined : this.parsedById.get(e.id)?.parsed) ?? (JSON.parse(e.body) as unknown);
      await this.applyChanges(tx, events.map((e) => ({ text: e.body, parsed: parsed(e) })), tasks);
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
    const last: Array<() => Promise<void>> = [];
    for (const [field, changes] of byField) {
      await this.deps.handlers[field]({ tx, changes, afterCommit: (task) => tasks.push(task), atEnd: (task) => last.push(task) });
    }
    for (const task of last) await task();
  }

  private runAfterCommit(tasks: Array<() => Promise<void>>): void {
    for (const task of tasks) {
      task().catch((error) => this.deps.log.warn({ err: error }, 'webhook after-commit task failed'));
    }
  }
}

/** What is stored of a received body. */
function toStored(received: Received): NewWebhookEvent {
  return { body: received.body, phoneNumberId: received.phoneNumberId };
}

/** A body's parsed form, or undefined when it is no JSON (the drain then fails it with the parser's error). */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
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
