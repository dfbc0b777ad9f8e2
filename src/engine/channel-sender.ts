/**
 * Sends one channel's due messages while this instance holds the channel's send lease: claim (QUEUED →
 * AGENDA), gate (channel health, tier quota, pair rate), number check, take the tokens, record the checks and the
 * attempts in one move (→ OPT_IN_* with the attempt mark), call the network, and store each outcome. Claims are pipelined with
 * the sends in flight; outcomes are written in small batches.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { authHoldReason, channelBlockReason, channelFailureReason, effectiveThroughput, tierLimit } from '../domain/channel.js';
import { decideSendFailure, graphTitle } from '../domain/send-failures.js';
import { NetworkError, type ChannelCredentials, type NetworkPort, type TemplateSendPayload } from '../network/port.js';
import { findChannelById, resetChannelAuthFailures, type ChannelRow } from '../store/channels.js';
import {
  claimDueMessages,
  claimRecordingAttempts,
  deferQueuedRows,
  failHandOffs,
  finishChecksRecordingAttempts,
  markHandedOff,
  parkQueuedRowsOfPausedWizards,
  peekDueMessages,
  releaseInDoubt,
  requeueMessages,
  requeueRefusedSends,
  type MovedRow,
} from '../store/message-moves.js';
import type { MessageRow } from '../store/message-inserts.js';
import type { Database } from '../store/schema.js';
import { acquireChannelLease } from '../store/channel-leases.js';
import {
  confirmWindowSends,
  countWindowRecipients,
  earliestWindowExpiry,
  findWindowRecipients,
  holdChannelForTier,
  lockChannel,
  releaseTierHold,
  releaseWindowSlots,
  reserveWindowRecipients,
} from '../store/tier-window.js';
import { findSuppressed } from '../store/opt-outs.js';
import { pauseChannelWizards, pauseWizards, resumeWizards } from '../store/send-wizards.js';
import { parkClaimedRows } from '../store/bulk-lifecycle.js';
import { freshChannel, noteChannelFailure, type ChannelHealthDeps } from './channel-health.js';
import { applyCounterMoves, lockRowsOfMoves } from './counters.js';
import { credentialsOf } from './credentials.js';
import { checkNumbers, type NumberCheckMode } from './number-check.js';
import type { PairRateMemory } from './pair-rate-memory.js';
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
  /** Last send time per recipient on this channel (pair rate; time-bounded, see pair-rate-memory.ts). */
  lastSentTo: Pick<Map<string, number>, 'get' | 'set'> | PairRateMemory;
  isStopping(): boolean;
}

type Outcome =
  | { id: string; kind: 'sent'; wamid: string }
  | { id: string; kind: 'retry'; dueAt: Date; reason: string }
  | { id: string; kind: 'fail'; message: string; detail: string }
  | { id: string; kind: 'in_doubt' }
  /** Refused for a channel-level reason (token, permission, locked account): back to QUEUED, no attempt counted. */
  | { id: string; kind: 'held' };

/** Runs a move and its counter updates in one transaction. */
export async function moveWithCounters<T extends MovedRow>(db: Kysely<Database>, move: (tx: Kysely<Database>) => Promise<T[]>): Promise<T[]> {
  return db.transaction().execute(async (tx) => {
    const moved = await move(tx);
    await applyCounterMoves(tx, moved);
    return moved;
  });
}

/** Sends for one channel until it has no due work, loses its lease, is blocked, or the dispatcher stops. */
export class ChannelSender {
  private inflight = 0;
  private outcomes: Outcome[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private idle: Array<() => void> = [];
  private leaseRenewedAt = Date.now();
  private channel: { row: ChannelRow; readAt: number } | null = null;
  private resumedAt = new Map<string, number>();
  /** Set by the first send the network refused for a channel-level reason: nothing more is claimed or sent. */
  private channelFailure: { reason: string; noted: Promise<void> } | null = null;
  private sentOnce = false;
  private flushTimer: NodeJS.Timeout | null = null;
  /** Set when the tier window is full: the channel is held until its earliest expiry, this sender ends. */
  private tierHeld = false;

  constructor(
    private readonly deps: ChannelSenderDeps,
    private readonly channelId: string,
  ) {}

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
          const paused = await pauseChannelWizards(db, channel.id, blocked);
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
        if (this.claimsWithAttempt()) {
          const peeked = await peekDueMessages(db, channel.id, want);
          const progress = peeked.length ? await this.processPeeked(channel, peeked) : 0;
          if (this.tierHeld) break;
          if (progress === 0) {
            if (this.inflight === 0) break;
            await this.waitForRoom();
          }
          continue;
        }
        const claimed = await db.transaction().execute(async (tx) => {
          const rows = await claimDueMessages(tx, channel.id, this.deps.owner, want, options.leaseSeconds);
          // A row of a bulk send the user paused (requeued after a refused attempt) waits again, unsent.
          const parked = await parkClaimedRows(tx, this.deps.owner, rows.filter((r) => r.send_wizard_id).map((r) => r.id));
          await applyCounterMoves(tx, [...rows, ...parked]);
          if (parked.length === 0) return rows;
          const gone = new Set(parked.map((p) => p.id));
          return rows.filter((r) => !gone.has(r.id));
        });
        if (claimed.length === 0) {
          if (this.inflight === 0) break;
          await this.waitForRoom();
          continue;
        }
        await this.process(channel, claimed);
        if (this.tierHeld) break;
      }
    } finally {
      while (this.inflight > 0) await this.waitForRoom();
      await this.flush();
    }
  }

  /**
   * True when the claim itself records the check and the attempt (one row version per message instead of three):
   * the number check is local (no network call between the claim and the attempt), and no test stall sits between
   * the claim and the gate (TMS_FAULT_GATE_DELAY_MS exercises the leased claim of the contacts mode).
   */
  private claimsWithAttempt(): boolean {
    return (this.deps.options.numberCheck ?? 'local') === 'local' && !this.deps.options.beforeGate;
  }

  /**
   * The claim of the local number check: rows read without a lock, gated (pair rate, tier window), checked
   * locally, paced, then claimed, checked and marked attempted in one move (`claimRecordingAttempts`), and sent.
   * Nothing is written before the mark, so a crash before it leaves the rows QUEUED and untouched, and a crash
   * after it leaves only the rows whose calls were about to start in doubt (as before). Returns how many rows it
   * moved or put off (0: no progress, e.g. every row was taken by another transaction).
   */
  private async processPeeked(channel: ChannelRow, peeked: MessageRow[]): Promise<number> {
    const { db, options, owner } = this.deps;
    if (this.channelFailure) return 0;
    const { allowed, deferred, tierLimited } = await this.gate(channel, peeked);
    if (deferred.length) {
      // Rows the tier window holds keep their due time (the channel is held); pair-rate rows are due later.
      const limited = new Set(tierLimited.map((m) => m.id));
      await deferQueuedRows(db, deferred.filter((d) => !limited.has(d.id)));
      const limitedWizards = [...new Set(tierLimited.map((m) => m.send_wizard_id).filter((w): w is string => !!w))];
      await pauseWizards(db, limitedWizards, 'TIER_LIMIT');
      if (tierLimited.length) this.tierHeld = true;
    }
    await this.resumeRunning(allowed);
    if (allowed.length === 0) return deferred.length;
    const creds: ChannelCredentials = credentialsOf(channel, this.deps.health.secrets);
    const byId = new Map(allowed.map((m) => [m.id, m]));
    const checks = await checkNumbers(this.deps, creds, allowed[0].company_id, allowed);
    const passing = checks.filter((c) => c.status === 'OPT_IN_SUCCESS').length;
    // Pacing before the mark (see process()): the tokens of every passing row are taken, then the rows are
    // claimed and marked in one statement, then called at once.
    for (let k = 0; k < passing; k += 1) await this.deps.bucket.take();
    const { moved, parked } = await db.transaction().execute(async (tx) => {
      const moved = await claimRecordingAttempts(tx, owner, checks, options.leaseSeconds);
      const taken = new Set(moved.map((m) => m.id));
      const rest = checks.filter((c) => !taken.has(c.id) && byId.get(c.id)?.send_wizard_id).map((c) => c.id);
      const parked = await parkQueuedRowsOfPausedWizards(tx, rest);
      await applyCounterMoves(tx, [...moved, ...parked]);
      return { moved, parked };
    });
    const attempted = moved.filter((m) => m.attempted).map((m) => m.id!);
    // A refused number (and a row parked for its paused bulk send) spends no tier slot. A row not moved at all
    // was taken by another transaction (a stop, another sender): its slot is left as the claimed path leaves it.
    const done = new Set(attempted);
    await this.giveBackSlots([...moved.filter((m) => !done.has(m.id!)).map((m) => m.id!), ...parked.map((p) => p.id!)]);
    for (const id of attempted) {
      this.inflight += 1;
      void this.send(creds, byId.get(id)!);
    }
    return moved.length + parked.length + deferred.length;
  }

  /** Held bulk sends whose rows go out again run again (looked at once a second per bulk send). */
  private async resumeRunning(allowed: MessageRow[]): Promise<void> {
    const now = Date.now();
    const resume = [...new Set(allowed.map((m) => m.send_wizard_id).filter((w): w is string => !!w))].filter((w) => now - (this.resumedAt.get(w) ?? 0) > 1000);
    for (const w of resume) this.resumedAt.set(w, now);
    await resumeWizards(this.deps.db, resume);
  }

  /** Holds the channel's running bulk sends with this reason. */
  private async pauseFor(reason: string): Promise<void> {
    const paused = await pauseChannelWizards(this.deps.db, this.channelId, reason);
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

  /** Gates, checks and launches the sends of a claimed batch. */
  private async process(channel: ChannelRow, claimed: MessageRow[]): Promise<void> {
    const { db, options } = this.deps;
    if (this.channelFailure) {
      // The token was refused while this batch was claimed: it goes back untouched.
      const back = claimed.map((m) => ({ id: m.id, due_at: new Date().toISOString(), attempts_increment: 0 }));
      await moveWithCounters(db, (tx) => requeueMessages(tx, this.deps.owner, back));
      return;
    }
    await options.beforeGate?.(claimed.length);
    const { allowed, deferred, tierLimited } = await this.gate(channel, claimed);
    if (deferred.length) {
      await moveWithCounters(db, (tx) => requeueMessages(tx, this.deps.owner, deferred));
      const limitedWizards = [...new Set(tierLimited.map((m) => m.send_wizard_id).filter((w): w is string => !!w))];
      await pauseWizards(db, limitedWizards, 'TIER_LIMIT');
      if (tierLimited.length) this.tierHeld = true;
    }
    await this.resumeRunning(allowed);
    if (allowed.length === 0) return;
    const creds: ChannelCredentials = credentialsOf(channel, this.deps.health.secrets);
    const byId = new Map(allowed.map((m) => [m.id, m]));
    const checks = await checkNumbers(this.deps, creds, allowed[0].company_id, allowed);
    const passing = checks.filter((c) => c.status === 'OPT_IN_SUCCESS').length;
    // Pace first, then record the checks and the attempts in one move, then call at once: a crash between the
    // mark and the call leaves almost nothing in doubt (a marked row waiting for its token would end
    // OUTCOME_UNKNOWN without being sent). The refused numbers are recorded in the same statement.
    for (let k = 0; k < passing; k += 1) await this.deps.bucket.take();
    const moved = await moveWithCounters(db, (tx) => finishChecksRecordingAttempts(tx, this.deps.owner, checks, options.leaseSeconds));
    const ids = moved.filter((m) => m.attempted).map((m) => m.id!);
    // An invalid number spends no tier slot.
    await this.giveBackSlots(checks.filter((c) => c.status !== 'OPT_IN_SUCCESS').map((c) => c.id));
    for (const id of ids) {
      this.inflight += 1;
      void this.send(creds, byId.get(id)!);
    }
  }

  /** Splits a claimed batch into what may go now and what waits (tier quota, pair rate). */
  private async gate(channel: ChannelRow, claimed: MessageRow[]) {
    const { db, options } = this.deps;
    const now = Date.now();
    const allowed: MessageRow[] = [];
    const deferred: Array<{ id: string; due_at: string; attempts_increment: number }> = [];
    const tierLimited: MessageRow[] = [];
    const seenInBatch = new Map<string, number>();
    const candidates: MessageRow[] = [];
    for (const m of claimed) {
      const last = Math.max(this.deps.lastSentTo.get(m.phone_number) ?? 0, seenInBatch.get(m.phone_number) ?? 0);
      if (last && now - last < options.pairGapMs) {
        deferred.push({ id: m.id, due_at: new Date(last + options.pairGapMs).toISOString(), attempts_increment: 0 });
        seenInBatch.set(m.phone_number, last + options.pairGapMs);
        continue;
      }
      seenInBatch.set(m.phone_number, now);
      candidates.push(m);
    }
    const limit = tierLimit(channel.messaging_limit_tier);
    if (limit === null) return { allowed: candidates, deferred, tierLimited };
    const windowSeconds = options.tierWindowMs / 1000;
    await db.transaction().execute(async (tx) => {
      await lockChannel(tx, channel.id);
      const numbers = [...new Set(candidates.map((m) => m.phone_number))];
      const inWindow = await findWindowRecipients(tx, channel.id, numbers, windowSeconds);
      // A suppressed number is refused by the local number check and never reaches the network: it needs no slot,
      // and must not wait for one (a full window would otherwise hold it until the window frees).
      const suppressed = candidates.length ? await findSuppressed(tx, candidates[0].company_id, numbers) : new Map<string, unknown>();
      let room = limit - (await countWindowRecipients(tx, channel.id, windowSeconds));
      const reserved: string[] = [];
      const reservedFor: string[] = [];
      for (const m of candidates) {
        if (inWindow.has(m.phone_number) || suppressed.has(m.phone_number)) {
          allowed.push(m);
        } else if (room > 0) {
          room -= 1;
          inWindow.add(m.phone_number);
          reserved.push(m.phone_number);
          reservedFor.push(m.id);
          allowed.push(m);
        } else {
          // Back with its own due time (order kept); the channel is held until the window frees a slot.
          tierLimited.push(m);
          deferred.push({ id: m.id, due_at: new Date(m.due_at).toISOString(), attempts_increment: 0 });
        }
      }
      await reserveWindowRecipients(tx, channel.id, reserved, windowSeconds, reservedFor);
      if (tierLimited.length) {
        const until = (await earliestWindowExpiry(tx, channel.id, windowSeconds)) ?? new Date(now + 1000);
        await holdChannelForTier(tx, channel.id, until);
      }
    });
    return { allowed, deferred, tierLimited };
  }

  /** One network call (already paced); its outcome is queued for the next flush. */
  private async send(creds: ChannelCredentials, message: MessageRow): Promise<void> {
    let outcome: Outcome;
    try {
      const payload = { ...(message.payload as TemplateSendPayload), biz_opaque_callback_data: message.id };
      const result = await this.deps.network.sendMessage(creds, payload);
      this.deps.options.afterNetworkAccept?.();
      this.deps.lastSentTo.set(message.phone_number, Date.now());
      outcome = { id: message.id, kind: 'sent', wamid: result.messages[0]?.id ?? '' };
      if (!this.sentOnce) {
        this.sentOnce = true;
        if (this.channel && this.channel.row.auth_failures > 0) {
          await resetChannelAuthFailures(this.deps.db, this.channelId).catch((err) => this.deps.log.warn({ err }, 'resetting the failure count failed'));
        }
      }
    } catch (error) {
      outcome = this.outcomeOfFailure(message, error);
    }
    this.outcomes.push(outcome);
    this.inflight -= 1;
    if (this.outcomes.length >= 50 || this.inflight === 0) void this.flush();
    else if (!this.flushTimer) {
      // One timer for the outcomes that wait (not one per send): at most 20 ms before they are written.
      this.flushTimer = setTimeout(() => {
        this.flushTimer = null;
        void this.flush();
      }, 20);
      this.flushTimer.unref();
    }
    for (const wake of this.idle.splice(0)) wake();
  }

  private outcomeOfFailure(message: MessageRow, error: unknown): Outcome {
    if (!(error instanceof NetworkError)) {
      this.deps.log.error({ err: error, messageId: message.id }, 'send failed unexpectedly; left for reconciliation');
      return { id: message.id, kind: 'in_doubt' };
    }
    if (error.kind === 'graph') {
      const reason = channelFailureReason({ code: error.graph?.code, subcode: error.graph?.error_subcode, message: error.graph?.message });
      if (reason) {
        // A Graph refusal of the token: the request was answered, nothing was sent. The row waits for the channel.
        if (!this.channelFailure) {
          const row = this.channel?.row ?? { id: this.channelId, auth_failures: 0 };
          const noted = noteChannelFailure(this.deps, row, error)
            .then(() => undefined)
            .catch((err: unknown) => this.deps.log.error({ err, channelId: this.channelId }, 'recording the channel failure failed'));
          this.channelFailure = { reason, noted };
          this.channel = null;
        }
        return { id: message.id, kind: 'held' };
      }
    }
    const decision = decideSendFailure(
      {
        kind: error.kind,
        httpStatus: error.httpStatus,
        code: error.graph?.code,
        title: graphTitle(error.graph?.message, error.graph?.error_user_title) ?? error.message,
        details: error.graph?.error_data?.details ?? error.graph?.error_user_msg,
        notSent: error.notSent,
      },
      message.attempts + 1,
      this.deps.options.maxAttempts,
      Math.random,
      this.deps.options.retryBaseMs,
    );
    if (decision.action === 'retry') {
      if (decision.throttle) this.deps.bucket.shrink(5000);
      return { id: message.id, kind: 'retry', dueAt: new Date(Date.now() + decision.delayMs), reason: decision.reason };
    }
    if (decision.action === 'fail') return { id: message.id, kind: 'fail', message: decision.errorMessage, detail: decision.errorDetail };
    return { id: message.id, kind: 'in_doubt' };
  }

  /** Writes queued outcomes (serialised, so batches never interleave). */
  private flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const batch = this.outcomes.splice(0);
      if (batch.length === 0) return;
      try {
        await this.writeOutcomes(batch);
      } catch (error) {
        // The rows keep their attempt mark: reconciliation settles them, they are never sent twice.
        this.deps.log.error({ err: error, count: batch.length }, 'writing send outcomes failed');
      }
    });
    return this.flushing;
  }

  private async writeOutcomes(batch: Outcome[]): Promise<void> {
    const { db } = this.deps;
    const sent = batch.flatMap((o) => (o.kind === 'sent' ? [{ id: o.id, ext_id: o.wamid }] : []));
    const failed = batch.flatMap((o) => (o.kind === 'fail' ? [{ id: o.id, error_message: o.message, error_message_detail: o.detail }] : []));
    const retry = batch.flatMap((o) =>
      o.kind === 'retry' ? [{ id: o.id, due_at: o.dueAt.toISOString(), attempts_increment: 0 }] : [],
    );
    const inDoubt = batch.flatMap((o) => (o.kind === 'in_doubt' ? [o.id] : []));
    // Undo the attempt mark's count: a refused token is not a send failure of the row.
    const held = batch.flatMap((o) => (o.kind === 'held' ? [{ id: o.id, due_at: new Date().toISOString(), attempts_increment: -1 }] : []));
    await moveWithCounters(db, async (tx) => {
      await lockRowsOfMoves(tx, [sent, failed, retry, held]);
      const moved = [
        ...(await markHandedOff(tx, sent)),
        ...(await failHandOffs(tx, this.deps.owner, failed)),
        ...(await requeueRefusedSends(tx, this.deps.owner, retry)),
        ...(await requeueRefusedSends(tx, this.deps.owner, held)),
      ];
      // A slot is spent only when the network accepted (counted from this, the latest send). In the flush's own
      // transaction (one commit fewer per flush): it locks only tier_recipients rows, after the message rows and
      // before the bulk sends' counters, so the lock order (src/store/README.md) is kept.
      await confirmWindowSends(tx, sent.map((o) => o.id));
      return moved;
    });
    await releaseInDoubt(db, this.deps.owner, inDoubt);
    // A refusal gives its slot back.
    await this.giveBackSlots([...failed, ...retry, ...held].map((o) => o.id));
  }

  /** Gives back the tier slots held for these messages; a freed slot ends the channel's tier hold at once. */
  private async giveBackSlots(ids: string[]): Promise<void> {
    if ((await releaseWindowSlots(this.deps.db, ids)) > 0) await releaseTierHold(this.deps.db, this.channelId);
  }

  private waitForRoom(): Promise<void> {
    return new Promise((resolve) => {
      this.idle.push(resolve);
      setTimeout(resolve, 50).unref();
    });
  }
}
