/**
 * Sends one channel's due messages while this instance holds the channel's send lease: the loop renews the lease,
 * reads the channel's health (a blocked channel or a refused token holds its bulk sends), sizes each batch to the
 * channel's pace and the room in flight, and runs it through the send path (send-path.ts: claim, gate, number
 * check, tokens, attempt mark, calls). Each call's outcome goes to the outcome writer (send-outcomes.ts), which
 * stores them in small batches. Claims are pipelined with the sends in flight.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { authHoldReason, channelBlockReason, effectiveThroughput } from '../domain/channel.js';
import type { ChannelCredentials, NetworkPort, TemplateSendPayload } from '../network/port.js';
import { acquireChannelLease } from '../store/channel-leases.js';
import { findChannelById, resetChannelAuthFailures, type ChannelRow } from '../store/channels.js';
import type { DueMessageRow } from '../store/message-moves.js';
import type { Database } from '../store/schema.js';
import { pauseChannelBulkSends, resumeBulkSends } from '../store/bulk-sends.js';
import { freshChannel, noteChannelFailure, type ChannelHealthDeps } from './channel-health.js';
import type { NumberCheckMode } from './number-check.js';
import type { PairRateMemory } from './pair-rate-memory.js';
import type { DelayedHandOffs } from './hand-off-marks.js';
import { MarketingRoute } from './marketing-route.js';
import { classifySendFailure, OutcomeWriter, type Outcome } from './send-outcomes.js';
import { attemptClaim, leasedClaim, sendBatch, type ClaimStrategy, type SendPathDeps } from './send-path.js';
import type { SendSlots } from './send-slots.js';
import type { TokenBucket } from './token-bucket.js';

/** Tunables of sending. */
export interface SendingOptions {
  claimBatch: number;
  concurrency: number;
  leaseSeconds: number;
  channelLeaseSeconds: number;
  maxAttempts: number;
  pairGapMs: number;
  /**
   * Length of the tier window (Meta: a moving 24 h; shorter only in tests). Rows the full window holds are not
   * looked at again before its earliest expiry (the channel is held, no polling of rows).
   */
  tierWindowMs: number;
  /** First retry delay (doubles per attempt, capped at 60×). */
  retryBaseMs: number;
  /**
   * `local` (absent = local): the number check needs no network call, so the claim records the check and the
   * attempt in one move (QUEUED → OPT_IN_*). `contacts` keeps the claim (→ AGENDA) before the network check.
   */
  numberCheck?: NumberCheckMode;
  /** Crash tests only: called after the network accepted a send, before its outcome is stored. */
  afterNetworkAccept?: () => void;
  /** Crash tests only (TMS_FAULT_GATE_DELAY_MS): awaited between a claim and its gate; may stall past the message lease. */
  beforeGate?: (claimed: number) => Promise<void>;
}

/** What a channel sender needs. */
export interface ChannelSenderDeps {
  db: Kysely<Database>;
  network: NetworkPort;
  log: Logger;
  owner: string;
  options: SendingOptions;
  health: ChannelHealthDeps;
  bucket: TokenBucket;
  /** The process's room for sends in flight, shared with every other channel's sender. */
  slots: SendSlots;
  /** Last send time per recipient on this channel (pair rate; time-bounded, see pair-rate-memory.ts). */
  lastSentTo: Pick<Map<string, number>, 'get' | 'set'> | PairRateMemory;
  isStopping(): boolean;
  /** Told after each flush that handed messages off, or passed bulk-send messages' marks on to wait. */
  handedOff?: () => void;
  /** Where the hand-off marks of bulk-send messages wait for their statuses (absent: written at once). */
  handOffs?: DelayedHandOffs;
}

/**
 * The claim of this sender: the claim itself records the check and the attempt (one row version per message
 * instead of three) when the number check is local (no network call between the claim and the attempt) and no
 * test stall sits between the claim and the gate (TMS_FAULT_GATE_DELAY_MS exercises the leased claim).
 */
function claimOf(options: SendingOptions): ClaimStrategy {
  return (options.numberCheck ?? 'local') === 'local' && !options.beforeGate ? attemptClaim : leasedClaim;
}

/** Sends for one channel until it has no due work, loses its lease, is blocked, or the dispatcher stops. */
export class ChannelSender {
  private inflight = 0;
  /** Sends launched by the batch running now (each holds one of the slots the batch took). */
  private launchedInBatch = 0;
  private idle: Array<() => void> = [];
  private leaseRenewedAt = Date.now();
  private channel: { row: ChannelRow; readAt: number } | null = null;
  private resumedAt = new Map<string, number>();
  /** Set by the first send the network refused for a channel-level reason: nothing more is claimed or sent. */
  private channelFailure: { reason: string; noted: Promise<void> } | null = null;
  private sentOnce = false;
  private readonly outcomes: OutcomeWriter;
  private readonly claim: ClaimStrategy;
  private readonly path: SendPathDeps;
  /** `/messages` or the Marketing Messages API, per row. */
  private readonly route: MarketingRoute;

  constructor(
    private readonly deps: ChannelSenderDeps,
    private readonly channelId: string,
  ) {
    const { db, owner, options } = deps;
    this.outcomes = new OutcomeWriter({ db, owner, channelId, log: deps.log, handedOff: deps.handedOff, handOffs: deps.handOffs });
    this.claim = claimOf(options);
    this.route = new MarketingRoute({
      db, network: deps.network, log: deps.log, channelId,
      takeToken: () => deps.bucket.take(),
      channelChanged: () => {
        this.channel = null;
      },
    });
    this.path = {
      db,
      owner,
      leaseSeconds: options.leaseSeconds,
      gate: { db, pairGapMs: options.pairGapMs, tierWindowMs: options.tierWindowMs, lastSentTo: deps.lastSentTo },
      check: deps,
      health: deps.health,
      bucket: deps.bucket,
      channelRefused: () => this.channelFailure !== null,
      beforeGate: options.beforeGate,
      resumeRunning: (rows) => this.resumeRunning(rows),
      launch: (creds, message, recipientKey) => {
        this.inflight += 1;
        this.launchedInBatch += 1;
        void this.send(creds, message, recipientKey);
      },
    };
  }

  /** The send loop. */
  async run(): Promise<void> {
    const { db, options } = this.deps;
    try {
      while (!this.deps.isStopping()) {
        if (!(await this.renewLease())) break;
        if (this.channelFailure) {
          await this.channelFailure.noted;
          await this.pauseFor(this.channelFailure.reason);
          break;
        }
        const channel = await this.channelHealth();
        if (!channel) break;
        // A channel whose token the network refused waits (no network call) for its back-off or a rotation.
        const held = authHoldReason(channel);
        if (held) {
          await this.pauseFor(held);
          break;
        }
        const blocked = channelBlockReason({
          status: channel.status,
          qualityRating: channel.quality_rating,
          messagingLimitTier: channel.messaging_limit_tier,
        });
        if (blocked) {
          const paused = await pauseChannelBulkSends(db, channel.id, blocked);
          if (paused) this.deps.log.warn({ channelId: channel.id, reason: blocked, paused }, 'bulk sends paused');
          break;
        }
        this.deps.bucket.setRate(effectiveThroughput(channel));
        // About a quarter second of sending per claim (the tokens are taken before the attempts are marked),
        // and never a sliver: claiming waits until half the in-flight room is free, so each claim's fixed
        // cost (a few statements and one contacts check) is spread over many messages.
        const room = options.concurrency - this.inflight;
        const want = Math.min(options.claimBatch, room, Math.max(1, Math.ceil(this.deps.bucket.currentRate() / 4)));
        const worthIt = Math.min(options.claimBatch, Math.max(1, Math.ceil(this.deps.bucket.currentRate() / 4)), Math.ceil(options.concurrency / 2));
        if (want < worthIt) {
          await this.waitForRoom();
          continue;
        }
        // The process's room, shared by every channel in turn (send-slots.ts): the batch claims no more rows than it
        // can send now.
        const granted = await this.deps.slots.take(want);
        if (this.deps.isStopping()) {
          this.deps.slots.give(granted);
          break;
        }
        let result: Awaited<ReturnType<typeof sendBatch>>;
        this.launchedInBatch = 0;
        try {
          result = await sendBatch(this.path, this.claim, channel, granted);
        } finally {
          this.deps.slots.give(granted - this.launchedInBatch);
        }
        const { progress, tierHeld } = result;
        // The tier window is full: the channel is held until its earliest expiry, this sender ends.
        if (tierHeld) break;
        if (progress === 0) {
          if (this.inflight === 0) break;
          await this.waitForRoom();
        }
      }
    } finally {
      while (this.inflight > 0) await this.waitForRoom();
      await this.outcomes.flush();
    }
  }

  /** Held bulk sends whose rows go out again run again (looked at once a second per bulk send). */
  private async resumeRunning(allowed: DueMessageRow[]): Promise<void> {
    const now = Date.now();
    const resume = [...new Set(allowed.map((m) => m.send_wizard_id).filter((w): w is string => !!w))].filter((w) => now - (this.resumedAt.get(w) ?? 0) > 1000);
    for (const w of resume) this.resumedAt.set(w, now);
    await resumeBulkSends(this.deps.db, resume);
  }

  /** Holds the channel's running bulk sends with this reason. */
  private async pauseFor(reason: string): Promise<void> {
    const paused = await pauseChannelBulkSends(this.deps.db, this.channelId, reason);
    if (paused) this.deps.log.warn({ channelId: this.channelId, reason, paused }, 'bulk sends paused');
  }

  private async renewLease(): Promise<boolean> {
    const { db, owner, options } = this.deps;
    if (Date.now() - this.leaseRenewedAt < (options.channelLeaseSeconds * 1000) / 3) return true;
    this.leaseRenewedAt = Date.now();
    return acquireChannelLease(db, this.channelId, owner, options.channelLeaseSeconds);
  }

  /** The channel row, read at most once a second while sending (webhooks mark it stale for the network read). */
  private async channelHealth(): Promise<ChannelRow | undefined> {
    if (this.channel && Date.now() - this.channel.readAt < 1000) return this.channel.row;
    const row = await this.readChannel();
    this.channel = row ? { row, readAt: Date.now() } : null;
    return row;
  }

  private async readChannel(): Promise<ChannelRow | undefined> {
    const row = await findChannelById(this.deps.db, this.channelId);
    if (!row) return undefined;
    return freshChannel(this.deps.health, row).catch((error) => {
      this.deps.log.warn({ err: error, channelId: row.id }, 'channel refresh failed; using the last known health');
      return row;
    });
  }

  /** One network call (already paced); its outcome is queued for the next flush. The pair rate counts by `recipientKey`. */
  private async send(creds: ChannelCredentials, message: DueMessageRow, recipientKey: string): Promise<void> {
    let outcome: Outcome;
    try {
      const payload = { ...(message.payload as TemplateSendPayload), biz_opaque_callback_data: message.id };
      const result = await this.route.send(creds, message, payload, this.channel?.row.marketing_messages_enabled ?? false);
      this.deps.options.afterNetworkAccept?.();
      this.deps.lastSentTo.set(recipientKey, Date.now());
      outcome = {
        id: message.id, kind: 'sent', wamid: result.messages[0]?.id ?? '', bulk: message.send_wizard_id !== null,
        acceptedAt: new Date().toISOString(),
      };
      if (!this.sentOnce) {
        this.sentOnce = true;
        if (this.channel && this.channel.row.auth_failures > 0) {
          await resetChannelAuthFailures(this.deps.db, this.channelId).catch((err) => this.deps.log.warn({ err }, 'resetting the failure count failed'));
        }
      }
    } catch (error) {
      outcome = this.outcomeOfFailure(message, error);
    }
    this.inflight -= 1;
    this.deps.slots.give(1);
    this.outcomes.add(outcome, this.inflight);
    for (const wake of this.idle.splice(0)) wake();
  }

  /** The failed call's outcome; a refused token stops the channel's sends, a throttle slows them. */
  private outcomeOfFailure(message: DueMessageRow, error: unknown): Outcome {
    const verdict = classifySendFailure(message, error, this.deps.options);
    if (verdict.unexpected) this.deps.log.error({ err: error, messageId: message.id }, 'send failed unexpectedly; left for reconciliation');
    if (verdict.channelRefusal && !this.channelFailure) {
      const row = this.channel?.row ?? { id: this.channelId, auth_failures: 0 };
      const noted = noteChannelFailure(this.deps, row, verdict.channelRefusal.error)
        .then(() => undefined)
        .catch((err: unknown) => this.deps.log.error({ err, channelId: this.channelId }, 'recording the channel failure failed'));
      this.channelFailure = { reason: verdict.channelRefusal.reason, noted };
      this.channel = null;
    }
    if (verdict.throttle) this.deps.bucket.shrink(5000);
    return verdict.outcome;
  }

  private waitForRoom(): Promise<void> {
    return new Promise((resolve) => {
      this.idle.push(resolve);
      setTimeout(resolve, 50).unref();
    });
  }
}
