/**
 * The dispatcher: one loop per instance. It finds channels with due messages and, of those, takes the send
 * lease of its fair share (instances register with a heartbeat; src/domain/channel-share.ts: ceil(channels ÷
 * live instances), preferred channels by rendezvous hashing, the surplus handed back), one sender per channel
 * across all instances so the channel's throughput cap holds, and runs a ChannelSender for each. Maintenance returns expired claims to the queue, fails sends whose outcome stayed
 * unknown past the reconciliation window, retries status events that arrived before their message, bounds the
 * waits for a status and in a blocked channel's queue, and deletes old applied webhook events.
 * The loop never dies: every error is logged and the next round goes on.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { NetworkPort } from '../network/port.js';
import {
  expireAllMessageLeases,
  failUnreconciled,
  listChannelsWithDueWork,
  requeueExpiredLeases,
} from '../store/message-moves.js';
import type { Database } from '../store/schema.js';
import {
  acquireChannelLease,
  beatInstanceHeartbeat,
  deleteDeadInstances,
  deleteInstance,
  dropAllChannelLeases,
  handOverChannelLease,
  listChannelLeases,
  releaseChannelLeases,
} from '../store/channel-leases.js';
import { planChannelShare, type LeaseView } from '../domain/channel-share.js';
import { deleteBulkSend, deleteBulkSendRows, findStaleStarts, listBulkSendsWithWaitingRows, queueWaitingRows } from '../store/bulk-sends.js';
import { activateDueSchedules } from '../store/bulk-lifecycle.js';
import { deleteOldAppliedWebhookEvents } from '../store/webhook-events.js';
import { asBackgroundWork } from '../store/db.js';
import { deleteOldRejectedItems } from '../store/webhook-rejected-items.js';
import { expireBlockedQueues, settleStatuslessSends } from './bounded-waits.js';
import { PairRateMemory } from './pair-rate-memory.js';
import { deleteExpiredIdempotencyKeys } from '../store/idempotency.js';
import type { ChannelHealthDeps } from './channel-health.js';
import type { NumberCheckMode } from './number-check.js';
import { ChannelSender, type SendingOptions } from './channel-sender.js';
import { DelayedHandOffs } from './hand-off-marks.js';
import { moveWithCounters } from './counters.js';
import { retryPendingStatusEvents } from './status-events.js';
import { continueStopCancels } from './bulk-sends.js';
import { SendSlots } from './send-slots.js';
import { TokenBucket } from './token-bucket.js';

/** A start that stored no row for this long died with its process; its rows are removed. */
const STALE_START_SECONDS = 600;
/** Applied webhook events are kept this long by default (for audits and replays), then deleted in indexed batches. */
export const WEBHOOK_RETENTION_SECONDS = 7 * 24 * 3600;
/** Retention runs this often; each run deletes batches until none is left or its time budget is spent. */
const RETENTION_EVERY_MS = 10_000;
const RETENTION_BATCH = 5000;
const RETENTION_BUDGET_MS = 2000;
/**
 * Stored rows are queued in statements of this many rows, for at most QUEUE_BUDGET_MS per maintenance round. On
 * PGlite every statement holds the one connection: short statements let a report read in between (a read waits for
 * one statement, never for a whole list). Each runs as background work, so a read's later statements go before the
 * next one; the one a read may wait for is kept to 250 rows.
 */
const QUEUE_BATCH = 250;
const QUEUE_BUDGET_MS = 1000;
/** The longest a maintenance round cancels the rows of stopped bulk sends (the next round goes on). */
const STOP_CANCEL_BUDGET_MS = 2000;
/** How often an instance renews its registration (its heartbeat lasts the channel lease's time). */
const HEARTBEAT_EVERY_MS = 1000;

/** Dispatcher settings (defaults in DEFAULT_DISPATCHER_OPTIONS). */
export interface DispatcherOptions extends SendingOptions {
  /** `local` (default: no network call) or `contacts` (also the rehearsal-only `/v1/contacts` check). */
  numberCheck: NumberCheckMode;
  /**
   * Sends in flight in this process, every channel together (`concurrency` bounds each channel's, and the network
   * client has as many connections): two channels' worth, so the connections always have requests ready while a
   * marked send waits for one behind a few hundred others at most, not thousands.
   */
  sendsInFlight: number;
  idleMs: number;
  maintenanceMs: number;
  /** After this long without an answer or status event, an attempted send fails with OUTCOME_UNKNOWN. */
  reconcileWindowSeconds: number;
  /** A handed-off message with no status event after this long fails "No status from the network" (STATUS_WAIT_SECONDS). */
  statusWaitSeconds: number;
  /** A message QUEUED on a blocked channel this long past its due time fails, never sent (QUEUE_WAIT_SECONDS). */
  queueWaitSeconds: number;
  /** Messages await a status and no status webhook arrived for the channel this long: alert (STATUS_WEBHOOK_ALERT_SECONDS). */
  statusAlertSeconds: number;
  /** Applied webhook events older than this are deleted (WEBHOOK_RETENTION_SECONDS; default 7 days). */
  webhookRetentionSeconds: number;
  /**
   * How long the hand-off mark of a bulk-send message waits for its statuses (HANDOFF_MARK_DELAY_MS; 0: written at
   * once; kept under a third of the message lease). See hand-off-marks.ts.
   */
  handOffMarkDelayMs: number;
}

/** Production defaults. */
export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = {
  claimBatch: 200,
  // A channel's sends in flight: its rate times Graph's round trip must fit (the top tier, 1,000 mps, with answers
  // up to half a second late); the token bucket, not this, paces a channel.
  concurrency: 512,
  sendsInFlight: 1024,
  leaseSeconds: 30,
  channelLeaseSeconds: 10,
  maxAttempts: 8,
  pairGapMs: 6000,
  tierWindowMs: 24 * 3600 * 1000,
  retryBaseMs: 1000,
  idleMs: 250,
  maintenanceMs: 1000,
  reconcileWindowSeconds: 600,
  statusWaitSeconds: 24 * 3600,
  queueWaitSeconds: 24 * 3600,
  statusAlertSeconds: 900,
  webhookRetentionSeconds: WEBHOOK_RETENTION_SECONDS,
  numberCheck: 'local',
  // Written at once unless told: the service's own default is HANDOFF_MARK_DELAY_MS's (config.ts).
  handOffMarkDelayMs: 0,
};

/** What the dispatcher needs. */
export interface DispatcherDeps {
  db: Kysely<Database>;
  network: NetworkPort;
  log: Logger;
  health: ChannelHealthDeps;
  options?: Partial<DispatcherOptions>;
  /** This instance's name in leases (random by default). */
  owner?: string;
  /**
   * True when no other process can share the database (PGlite): leases left by a crashed run are dropped at
   * start instead of waiting for them to expire.
   */
  exclusive?: boolean;
  /** Told after each flush that handed messages off (whether this process is sending: `SendActivity`). */
  handedOff?: () => void;
}

/** The dispatcher. */
export class Dispatcher {
  readonly owner: string;
  private readonly options: DispatcherOptions;
  private readonly senders = new Map<string, Promise<void>>();
  /** Channels over this instance's fair share whose senders are finishing; their leases are then handed back. */
  private readonly leaving = new Set<string>();
  /** Channels whose running sender was passed new work (wakeFor): the loop is woken when it ends. */
  private readonly wakeWhenDone = new Set<string>();
  /** Live instances sharing the database (this one included), from the last heartbeat. */
  private instances = 1;
  private lastHeartbeat = 0;
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly pairs = new Map<string, PairRateMemory>();
  /** Room for sends in flight, shared by this process's channel senders. */
  private readonly slots: SendSlots;
  /** Hand-off marks of bulk-send messages waiting for their statuses (public for tests). */
  readonly handOffs: DelayedHandOffs;
  private stopping = false;
  private running: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  /** A wake came while the loop was in a round (after its probe, perhaps): the next sleep returns at once. */
  private woken = false;
  /** A wake asked for maintenance (a bulk send started): that round shares the channels before maintaining too. */
  private shareFirst = false;
  private lastMaintenance = 0;
  private lastRetention = 0;
  /** Per bulk send being queued: the last row number queued (the next statement starts after it). */
  private readonly queueCursors = new Map<string, number>();

  constructor(private readonly deps: DispatcherDeps) {
    this.owner = deps.owner ?? `tms-${process.pid}-${randomBytes(4).toString('hex')}`;
    this.options = { ...DEFAULT_DISPATCHER_OPTIONS, ...deps.options };
    this.slots = new SendSlots(this.options.sendsInFlight);
    // Under a third of the lease: a row's lease outlasts its waiting mark by far (an expired lease is harmless, but
    // a row still leased reads as this instance's send in progress).
    const delayMs = Math.min(this.options.handOffMarkDelayMs, (this.options.leaseSeconds * 1000) / 3);
    this.handOffs = new DelayedHandOffs({ db: deps.db, owner: this.owner, log: deps.log, delayMs });
  }

  /** Starts the loop. */
  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  /**
   * Wakes the loop now (new work was queued); `maintain` also runs a maintenance round (a bulk send started), after
   * a share of the channels: rows a start stored queued go out without waiting for the maintenance statements.
   */
  wake(maintain = false): void {
    if (maintain) {
      this.lastMaintenance = 0;
      this.shareFirst = true;
    }
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  /**
   * New work was queued on one channel: a sender already running for it here claims it in its next round, so the
   * loop is woken only when there is none (a single send per request would otherwise cost a whole round), or when
   * that sender ends (it may have made its last claim before the row was stored).
   */
  wakeFor(channelId: string): void {
    if (this.senders.has(channelId) && !this.leaving.has(channelId)) {
      this.wakeWhenDone.add(channelId);
      return;
    }
    this.wake();
  }

  /** The loop is asleep between rounds (no round in progress, none asked for): a wake now starts one. */
  get asleep(): boolean {
    return this.wakeUp !== null;
  }

  /** Stops after the sends in flight are answered and stored; gives the channel leases up. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    for (const bucket of this.buckets.values()) bucket.drain();
    await this.running;
    await Promise.all(this.senders.values());
    await this.handOffs.flushAll();
    this.running = null;
    await releaseChannelLeases(this.deps.db, this.owner).catch(() => undefined);
    if (!this.deps.exclusive) await deleteInstance(this.deps.db, this.owner).catch(() => undefined);
    this.lastHeartbeat = 0;
  }

  /** Live instances as last counted (1 on a database no other process shares). */
  liveInstances(): number {
    return this.instances;
  }

  /** Channels this instance runs a sender for now (tests, metrics). */
  sendingChannels(): string[] {
    return [...this.senders.keys()];
  }

  /** Runs maintenance once (tests and start-up recovery). */
  async maintain(): Promise<void> {
    const { db } = this.deps;
    // Scheduled bulk sends whose time has come start (exactly once across instances: status-guarded UPDATE).
    const activated = await activateDueSchedules(db);
    if (activated.length) this.deps.log.info({ bulkSendIds: activated }, 'scheduled bulk sends started');
    await this.queueStoredRows();
    // Stops answer at once and leave their rows to cancel in batches: go on with them (after a restart too).
    await continueStopCancels(db, STOP_CANCEL_BUDGET_MS);
    for (const id of await findStaleStarts(db, STALE_START_SECONDS)) {
      this.deps.log.warn({ bulkSendId: id }, 'removing a bulk send whose start never completed');
      await deleteBulkSendRows(db, id);
      await deleteBulkSend(db, id);
    }
    await moveWithCounters(db, (tx) => requeueExpiredLeases(tx, 1000));
    const failed = await moveWithCounters(db, (tx) => failUnreconciled(tx, this.options.reconcileWindowSeconds, 1000));
    if (failed.length) this.deps.log.warn({ count: failed.length }, 'sends with unknown outcome failed after the reconciliation window');
    await retryPendingStatusEvents(db, this.deps.log);
    // Bounded waits: no message waits for ever for its status, or in the queue of a blocked channel.
    await settleStatuslessSends(db, this.deps.log, this.options);
    await expireBlockedQueues(db, this.deps.log, this.options);
    // Idempotency keys older than 24 h: every round, in batches until none is left (bounded per round).
    for (let round = 0; round < 20; round += 1) if ((await deleteExpiredIdempotencyKeys(db, 5000)) < 5000) break;
    if (!this.deps.exclusive) await deleteDeadInstances(db);
    if (Date.now() - this.lastRetention > RETENTION_EVERY_MS) {
      this.lastRetention = Date.now();
      await this.applyWebhookRetention();
    }
  }

  /**
   * Started bulk sends: their stored rows are queued (NONE → QUEUED) in row order, QUEUE_BATCH rows a statement, each
   * bulk send from its cursor, until none is left or the round's budget is spent (the next round goes on). A
   * statement that queues fewer rows than asked drops the cursor: the next pass starts from the first row again, so
   * rows that wait again before the cursor (a user pause, a row another transaction held) are found.
   */
  private async queueStoredRows(): Promise<void> {
    const { db } = this.deps;
    const started = Date.now();
    const wizards = await listBulkSendsWithWaitingRows(db);
    for (const id of this.queueCursors.keys()) if (!wizards.includes(id)) this.queueCursors.delete(id);
    for (const id of wizards) {
      while (Date.now() - started < QUEUE_BUDGET_MS) {
        let lastRow: number | null = null;
        const groups = await asBackgroundWork(() => moveWithCounters(db, async (tx) => {
          const queued = await queueWaitingRows(tx, id, this.queueCursors.get(id) ?? 0, QUEUE_BATCH);
          lastRow = queued.lastRow;
          return queued.groups;
        }));
        if (groups.reduce((sum, g) => sum + g.n, 0) < QUEUE_BATCH || lastRow === null) {
          this.queueCursors.delete(id);
          break;
        }
        this.queueCursors.set(id, lastRow);
      }
    }
  }

  /** Deletes applied webhook events past retention in indexed batches until none is left or the time budget is spent. */
  async applyWebhookRetention(budgetMs = RETENTION_BUDGET_MS): Promise<number> {
    const started = Date.now();
    let deleted = 0;
    for (let round = 0; round < 1000; round += 1) {
      const n = await deleteOldAppliedWebhookEvents(this.deps.db, this.options.webhookRetentionSeconds, RETENTION_BATCH);
      // Status items set apart are kept as long as the bodies they came in.
      await deleteOldRejectedItems(this.deps.db, this.options.webhookRetentionSeconds, RETENTION_BATCH);
      deleted += n;
      if (n < RETENTION_BATCH || Date.now() - started >= budgetMs) break;
    }
    return deleted;
  }

  private async loop(): Promise<void> {
    if (this.deps.exclusive) {
      await dropAllChannelLeases(this.deps.db).catch((error) => this.deps.log.error({ err: error }, 'dropping leases failed'));
      await expireAllMessageLeases(this.deps.db).catch((error) => this.deps.log.error({ err: error }, 'expiring leases failed'));
    }
    while (!this.stopping) {
      try {
        if (Date.now() - this.lastMaintenance >= this.options.maintenanceMs) {
          this.lastMaintenance = Date.now();
          // Beat before the round's longest step too: a slow maintenance must not make the others count us dead.
          await this.heartbeat();
          if (this.shareFirst) {
            this.shareFirst = false;
            await this.shareChannels();
          }
          await this.maintain();
        }
        await this.shareChannels();
      } catch (error) {
        this.deps.log.error({ err: error }, 'dispatcher round failed');
      }
      await this.sleep(this.options.idleMs);
    }
  }

  /**
   * One round of the share rule: count the live instances (heartbeat), read the channels with due work and their
   * leases, keep and take up to this instance's fair share, and hand the surplus back.
   */
  private async shareChannels(): Promise<void> {
    const { db } = this.deps;
    await this.heartbeat();
    // The channels this instance is sending count as due without a probe (the probe would walk the index entries of
    // the rows their senders just claimed); the others are probed.
    const sending = [...this.senders.keys()];
    const due = [...sending, ...(await listChannelsWithDueWork(db, sending))];
    if (due.length === 0 || this.stopping) return;
    const leases = new Map<string, LeaseView>((await listChannelLeases(db)).map((l) => [l.channel_id, { owner: l.owner, live: l.live }]));
    const running = new Set([...this.senders.keys()].filter((c) => !this.leaving.has(c)));
    const plan = planChannelShare({ owner: this.owner, instances: this.instances, due, leases, running, leaving: this.leaving });
    for (const channelId of plan.handBack) {
      if (this.senders.has(channelId)) {
        // Its sender ends after the sends in flight (isStopping), then the lease is handed back.
        this.leaving.add(channelId);
      } else {
        await handOverChannelLease(db, channelId, this.owner, this.options.pairGapMs / 1000);
      }
    }
    for (const channelId of [...plan.resume, ...plan.take]) {
      if (this.stopping || this.senders.has(channelId)) continue;
      if (!(await acquireChannelLease(db, channelId, this.owner, this.options.channelLeaseSeconds))) continue;
      this.startSender(channelId);
    }
  }

  /** Renews this instance's registration (at most once a second) and counts the live instances. */
  private async heartbeat(): Promise<void> {
    if (this.deps.exclusive || Date.now() - this.lastHeartbeat < HEARTBEAT_EVERY_MS) return;
    this.instances = await beatInstanceHeartbeat(this.deps.db, this.owner, this.options.channelLeaseSeconds);
    this.lastHeartbeat = Date.now();
  }

  private startSender(channelId: string): void {
    // Made before the channel is read: the sender gives it the channel's rate, which fills its first burst.
    if (!this.buckets.has(channelId)) this.buckets.set(channelId, new TokenBucket());
    if (!this.pairs.has(channelId)) this.pairs.set(channelId, new PairRateMemory(this.options.pairGapMs));
    const sender = new ChannelSender(
      {
        db: this.deps.db,
        network: this.deps.network,
        log: this.deps.log,
        owner: this.owner,
        options: this.options,
        health: this.deps.health,
        bucket: this.buckets.get(channelId)!,
        slots: this.slots,
        lastSentTo: this.pairs.get(channelId)!,
        isStopping: () => this.stopping || this.leaving.has(channelId),
        handedOff: this.deps.handedOff,
        handOffs: this.handOffs,
      },
      channelId,
    );
    const run = sender
      .run()
      .catch((error) => this.deps.log.error({ err: error, channelId }, 'channel sender failed'))
      .then(async () => {
        if (!this.leaving.has(channelId)) return;
        await handOverChannelLease(this.deps.db, channelId, this.owner, this.options.pairGapMs / 1000)
          .catch((error) => this.deps.log.error({ err: error, channelId }, 'handing a channel lease back failed'));
        this.leaving.delete(channelId);
      })
      .finally(() => {
        this.senders.delete(channelId);
        if (this.wakeWhenDone.delete(channelId)) this.wake();
      });
    this.senders.set(channelId, run);
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wakeUp?.(), ms);
      this.wakeUp = () => {
        this.wakeUp = null;
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
