/**
 * One batch of a channel's sends, the same steps whatever the claim: take due rows, gate them (pair rate, tier
 * window), check the numbers, take the tokens, record the checks and the attempts in one move, then launch the
 * calls. The claim is a parameter:
 * - `attemptClaim` (local number check): rows are read without a lock and claimed only when the attempt is recorded
 *   (QUEUED → OPT_IN_* in one move, `claimRecordingAttempts`). Nothing is written before that mark, so a crash before
 *   it leaves the rows QUEUED and untouched.
 * - `leasedClaim` (contacts check, or a test stall between claim and gate): rows are claimed first (QUEUED →
 *   AGENDA under this owner's lease), then checked and marked (`finishChecksRecordingAttempts`).
 * Pacing comes before the mark, then the calls start at once (a marked row waiting for its token would end
 * OUTCOME_UNKNOWN without being sent). A crash after the mark's commit and before the calls are written still leaves
 * that one batch in doubt: at most a quarter second of the channel's pace, never sent again.
 */
import type { Kysely } from 'kysely';
import type { ChannelCredentials } from '../network/port.js';
import { withdrawClaimedRows } from '../store/bulk-lifecycle.js';
import type { ChannelRow } from '../store/channels.js';
import {
  type DueMessageRow,
  claimDueMessages,
  claimRecordingAttempts,
  deferQueuedRows,
  finishChecksRecordingAttempts,
  peekDueMessages,
  requeueMessages,
  withdrawRowsOfHeldBulkSends,
} from '../store/message-moves.js';
import type { Database } from '../store/schema.js';
import { pauseBulkSends } from '../store/bulk-sends.js';
import type { ChannelHealthDeps } from './channel-health.js';
import { applyCounterMoves, moveWithCounters, recordAttemptsWithCounters } from './counters.js';
import { credentialsOf } from './credentials.js';
import { checkNumbers, type NumberCheckDeps, type NumberCheckResult } from './number-check.js';
import { gateBatch, giveBackTierSlots, type DeferredRow, type GateDeps } from './send-gate.js';
import type { TokenBucket } from './token-bucket.js';

/** Where a claim strategy works: the database, this instance's name and the message lease. */
export interface ClaimContext {
  db: Kysely<Database>;
  owner: string;
  leaseSeconds: number;
}

/** The rows a check-and-attempt move recorded: which to send and which give their tier slot back. */
export interface Recorded {
  /** Rows the move changed (progress of a batch whose taking moved nothing). */
  moved: number;
  attempted: string[];
  slotsBack: string[];
}

/** How a batch's rows are taken, put back, put off and recorded. */
export interface ClaimStrategy {
  /** True when taking the rows already moved them (a leased claim): taking them is progress. */
  readonly takeMoves: boolean;
  /** Up to `want` due rows of the channel. */
  take(ctx: ClaimContext, channelId: string, want: number): Promise<DueMessageRow[]>;
  /** Rows taken while the channel's token was refused go back untouched. */
  giveBack(ctx: ClaimContext, rows: DueMessageRow[]): Promise<void>;
  /** Rows the gate put off: pair-rate rows get a later due time; tier-limited rows wait for the channel's hold. */
  putOff(ctx: ClaimContext, deferred: DeferredRow[], tierLimited: DueMessageRow[]): Promise<void>;
  /** Records the checks and the attempts in one move. */
  record(ctx: ClaimContext, checks: NumberCheckResult[], rows: Map<string, DueMessageRow>): Promise<Recorded>;
}

/** The local number check's claim: read without a lock, claimed when the attempt is recorded. */
export const attemptClaim: ClaimStrategy = {
  takeMoves: false,
  take: (ctx, channelId, want) => peekDueMessages(ctx.db, channelId, want),
  giveBack: async () => {},
  async putOff(ctx, deferred, tierLimited) {
    // Rows the tier window holds keep their due time (the channel is held); pair-rate rows are due later.
    const limited = new Set(tierLimited.map((m) => m.id));
    await deferQueuedRows(ctx.db, deferred.filter((d) => !limited.has(d.id)));
  },
  async record(ctx, checks, rows) {
    const claimed = await recordAttemptsWithCounters(ctx.db, async (tx) => {
      const attempts = await claimRecordingAttempts(tx, ctx.owner, checks, ctx.leaseSeconds);
      const taken = new Set(attempts.map((m) => m.id));
      const rest = checks.filter((c) => !taken.has(c.id) && rows.get(c.id)?.send_wizard_id).map((c) => c.id);
      // Rows of a bulk send its user paused wait again (NONE); those of a stopped one are cancelled.
      return { attempts, withdrawn: await withdrawRowsOfHeldBulkSends(tx, rest) };
    });
    // A stop or a user pause committed meanwhile: nothing was claimed, the next batch withdraws the rows.
    if (!claimed) return { moved: checks.length, attempted: [], slotsBack: checks.map((c) => c.id) };
    const { attempts: moved, withdrawn: parked } = claimed;
    const attempted = moved.filter((m) => m.attempted).map((m) => m.id!);
    // A refused number (and a row parked for its paused bulk send) spends no tier slot. A row not moved at all
    // was taken by another transaction (a stop, another sender): its slot is left as the leased claim leaves it.
    const done = new Set(attempted);
    const slotsBack = [...moved.filter((m) => !done.has(m.id!)).map((m) => m.id!), ...parked.map((p) => p.id!)];
    return { moved: moved.length + parked.length, attempted, slotsBack };
  },
};

/** The leased claim: QUEUED → AGENDA first, then checked and marked under the lease. */
export const leasedClaim: ClaimStrategy = {
  takeMoves: true,
  take: (ctx, channelId, want) =>
    ctx.db.transaction().execute(async (tx) => {
      const rows = await claimDueMessages(tx, channelId, ctx.owner, want, ctx.leaseSeconds);
      // A row of a bulk send the user paused or stopped (requeued after a refused attempt) is withdrawn, unsent.
      const parked = await withdrawClaimedRows(tx, ctx.owner, rows.filter((r) => r.send_wizard_id).map((r) => r.id));
      await applyCounterMoves(tx, [...rows, ...parked]);
      if (parked.length === 0) return rows;
      const gone = new Set(parked.map((p) => p.id));
      return rows.filter((r) => !gone.has(r.id));
    }),
  async giveBack(ctx, rows) {
    const back = rows.map((m) => ({ id: m.id, due_at: new Date().toISOString(), attempts_increment: 0 }));
    await moveWithCounters(ctx.db, (tx) => requeueMessages(tx, ctx.owner, back));
  },
  async putOff(ctx, deferred) {
    await moveWithCounters(ctx.db, (tx) => requeueMessages(tx, ctx.owner, deferred));
  },
  async record(ctx, checks) {
    const recorded = await recordAttemptsWithCounters(ctx.db, async (tx) => ({
      attempts: await finishChecksRecordingAttempts(tx, ctx.owner, checks, ctx.leaseSeconds),
    }));
    // A stop or a user pause committed meanwhile: the rows stay claimed, unattempted, for its cancel or its park.
    if (!recorded) return { moved: 0, attempted: [], slotsBack: checks.map((c) => c.id) };
    const moved = recorded.attempts;
    // An invalid number spends no tier slot.
    const slotsBack = checks.filter((c) => c.status !== 'OPT_IN_SUCCESS').map((c) => c.id);
    return { moved: moved.length, attempted: moved.filter((m) => m.attempted).map((m) => m.id!), slotsBack };
  },
};

/** What a batch needs from its channel sender. */
export interface SendPathDeps extends ClaimContext {
  gate: GateDeps;
  check: NumberCheckDeps;
  health: ChannelHealthDeps;
  bucket: TokenBucket;
  /** True once the network refused the channel's token: nothing more is sent. */
  channelRefused(): boolean;
  /** Crash tests only: awaited between a claim and its gate. */
  beforeGate?: (claimed: number) => Promise<void>;
  /** Held bulk sends whose rows go out again run again. */
  resumeRunning(rows: DueMessageRow[]): Promise<void>;
  /** Starts one (already paced and marked) network call. */
  launch(creds: ChannelCredentials, message: DueMessageRow, recipientKey: string): void;
}

/** A batch's result: its progress (0: nothing taken or moved) and whether the tier window now holds the channel. */
export interface BatchResult {
  progress: number;
  tierHeld: boolean;
}

/** Takes, gates, checks, paces, records and launches one batch of up to `want` rows. */
export async function sendBatch(deps: SendPathDeps, claim: ClaimStrategy, channel: ChannelRow, want: number): Promise<BatchResult> {
  const rows = await claim.take(deps, channel.id, want);
  const taken = claim.takeMoves ? rows.length : 0;
  if (rows.length === 0) return { progress: 0, tierHeld: false };
  if (deps.channelRefused()) {
    // The token was refused while this batch was taken: it goes back untouched.
    await claim.giveBack(deps, rows);
    return { progress: taken, tierHeld: false };
  }
  await deps.beforeGate?.(rows.length);
  const { allowed, deferred, tierLimited, keys } = await gateBatch(deps.gate, channel, rows);
  const limitedBulkSends = new Set(tierLimited.map((m) => m.send_wizard_id).filter((w): w is string => !!w));
  if (deferred.length) {
    await claim.putOff(deps, deferred, tierLimited);
    await pauseBulkSends(deps.db, [...limitedBulkSends], 'TIER_LIMIT');
  }
  const tierHeld = tierLimited.length > 0;
  // A bulk send this batch just held for the tier window stays held, though some of its rows go out in it.
  await deps.resumeRunning(allowed.filter((m) => !limitedBulkSends.has(m.send_wizard_id ?? '')));
  if (allowed.length === 0) return { progress: taken || deferred.length, tierHeld };
  const creds: ChannelCredentials = credentialsOf(channel, deps.health.secrets);
  const byId = new Map(allowed.map((m) => [m.id, m]));
  const checks = await checkNumbers(deps.check, creds, allowed[0].company_id, allowed);
  const passing = checks.filter((c) => c.status === 'OPT_IN_SUCCESS').length;
  for (let k = 0; k < passing; k += 1) await deps.bucket.take();
  const recorded = await claim.record(deps, checks, byId);
  await giveBackTierSlots(deps.db, channel.id, recorded.slotsBack);
  for (const id of recorded.attempted) deps.launch(creds, byId.get(id)!, keys.get(id)!);
  return { progress: taken || recorded.moved + deferred.length, tierHeld };
}
