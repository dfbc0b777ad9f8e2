/**
 * A channel's health (status, quality, tier) as the service should act on it: the stored values when they
 * were read from the network recently, otherwise a fresh `GET /{phone-number-id}`. Webhooks mark a
 * channel stale, so the next read asks the network again. A channel in use is read again in the background
 * before its health expires.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { SecretBox } from '../domain/secret-box.js';
import { authHoldReason, authRetryDelayMs, channelFailureReason, throughputOfLevel } from '../domain/channel.js';
import { AppError } from '../errors.js';
import { NetworkError, type NetworkPort } from '../network/port.js';
import {
  clearChannelAuthFailure, findChannel, findChannelById, listChannels, markChannelAuthFailed, updateChannelHealth, type ChannelRow,
} from '../store/channels.js';
import type { Database } from '../store/schema.js';
import { pauseChannelBulkSends } from '../store/bulk-sends.js';
import { credentialsOf } from './credentials.js';
import { toAppError } from './network-errors.js';

/** What reading channel health needs. */
export interface ChannelHealthDeps {
  db: Kysely<Database>;
  network: NetworkPort;
  /** How long a network read stays fresh. */
  maxAgeMs: number;
  log: Logger;
  /** Opens the sealed channel access token. */
  secrets: SecretBox;
}

/**
 * Records a channel-level failure (expired token, missing permission, locked account) of a call made with the
 * channel's token: the channel is left alone until the back-off passes or the token is rotated. Returns the
 * paused_reason, or null when the error concerns something else.
 */
export async function noteChannelFailure(
  deps: Pick<ChannelHealthDeps, 'db' | 'log'>,
  channel: Pick<ChannelRow, 'id' | 'auth_failures'>,
  error: unknown,
): Promise<string | null> {
  if (!(error instanceof NetworkError) || error.kind !== 'graph') return null;
  const reason = channelFailureReason({ code: error.graph?.code, subcode: error.graph?.error_subcode, message: error.graph?.message });
  if (!reason) return null;
  const retryAt = new Date(Date.now() + authRetryDelayMs(channel.auth_failures + 1));
  await markChannelAuthFailed(deps.db, channel.id, reason, retryAt);
  // Whoever met the failure (a send, a channel read, a template call), the channel's bulk sends are held now: the
  // dispatcher leaves a marked channel alone until its back-off, so no sender may be there to pause them later.
  const paused = await pauseChannelBulkSends(deps.db, channel.id, reason);
  deps.log.warn({ channelId: channel.id, reason, retryAt, paused }, 'channel-level network failure; the channel waits for the back-off or a token rotation');
  return reason;
}

/** The 503 for a channel held by a channel-level failure. */
export function channelAuthError(channel: Pick<ChannelRow, 'auth_error' | 'auth_retry_at'>): AppError {
  const wait = channel.auth_retry_at ? Math.ceil((channel.auth_retry_at.getTime() - Date.now()) / 1000) : 60;
  return new AppError(
    'CHANNEL_AUTH_FAILED',
    `The channel cannot reach the network with its access token: ${channel.auth_error ?? 'refused'}. Rotate it with \`tms channel update --access-token-stdin\`.`,
    { field: 'channel_id', retryAfter: Math.max(1, wait) },
  );
}

/**
 * Refreshes running now, per health deps and channel (and whether the row carried an auth error): requests that
 * find the same channel stale at once share one network read and one update of its row, where each used to make
 * its own (32 requests in flight made 32 reads and 32 updates queued on the row's lock every time it went stale).
 */
const refreshing = new WeakMap<ChannelHealthDeps, Map<string, Promise<ChannelRow>>>();

/** How a refresh relates to a read of the channel already running. */
export interface RefreshOptions {
  /**
   * An event changed the channel's health (a quality webhook): the read must begin after it. A read already running
   * may have begun before the event, so it is not shared: this one waits for it to end (its update lands first)
   * and then reads; requests arriving meanwhile share this one.
   */
  afterEvent?: boolean;
}

/**
 * Reads a stored channel's health from the network and stores it; returns the updated row. Callers that ask
 * while a read of the same channel runs get that read's health on their own row, and so do callers whose copy of
 * the row is older than a fresh read already stored.
 */
export async function refreshChannel(deps: ChannelHealthDeps, channel: ChannelRow, options: RefreshOptions = {}): Promise<ChannelRow> {
  let running = refreshing.get(deps);
  if (!running) {
    running = new Map();
    refreshing.set(deps, running);
  }
  const key = `${channel.auth_error ? 'held' : 'clear'}:${channel.id}`;
  const shared = running.get(key);
  if (shared && !options.afterEvent) {
    const fresh = await shared;
    return { ...channel, ...healthOf(fresh) };
  }
  const flight = shared
    ? shared.catch(() => undefined).then(() => readAndStoreHealth(deps, channel, true))
    : options.afterEvent
      ? readAndStoreHealth(deps, channel, true)
      : storedSinceOrRead(deps, channel);
  running.set(key, flight);
  try {
    return await flight;
  } finally {
    if (running.get(key) === flight) running.delete(key);
  }
}

/**
 * The row as stored when a read stored since the caller's copy was taken left it fresh (a request that read the
 * row before a shared read stored, and asks once that read has ended, or a read stored by another instance);
 * otherwise a network read. A quality event clears the stored mark, so after one the network is asked.
 */
async function storedSinceOrRead(deps: ChannelHealthDeps, channel: ChannelRow): Promise<ChannelRow> {
  const current = await findChannelById(deps.db, channel.id);
  const copiedAt = channel.refreshed_at?.getTime() ?? -Infinity;
  if (current?.refreshed_at && current.refreshed_at.getTime() > copiedAt && healthIsFresh(deps, current)) {
    return { ...channel, ...healthOf(current) };
  }
  return readAndStoreHealth(deps, channel, false);
}

/**
 * When the last refresh ahead of expiry began, per health deps and channel: a request holding a copy of the row
 * read before that refresh stored still sees the old age, and must not start another.
 */
const aheadStarted = new WeakMap<ChannelHealthDeps, Map<string, number>>();
/** Channels remembered in aheadStarted before it is emptied (each entry matters for half the maximum age). */
const AHEAD_ENTRIES = 10_000;

/**
 * Starts a background refresh of a channel in use whose health is fresh but past half its maximum age, so a
 * channel with traffic is read again before it expires and no request of it waits for the network. The request
 * that calls this goes on with the health it has (at most the maximum age old, as before); until the read is
 * stored, requests still find the stored health fresh, and one that finds it expired shares the running read.
 */
export function refreshAhead(deps: ChannelHealthDeps, channel: ChannelRow): void {
  if (!channel.refreshed_at || channel.auth_error) return;
  const now = Date.now();
  const half = deps.maxAgeMs / 2;
  if (now - channel.refreshed_at.getTime() <= half) return;
  let started = aheadStarted.get(deps);
  if (!started) {
    started = new Map();
    aheadStarted.set(deps, started);
  }
  const last = started.get(channel.id);
  if (last !== undefined && now - last < half) return;
  if (started.size >= AHEAD_ENTRIES) started.clear();
  started.set(channel.id, now);
  refreshChannel(deps, channel).catch((error: unknown) => {
    // The stored health stays as it is; a request that finds it expired reads the network itself.
    deps.log.warn({ err: error, channelId: channel.id }, 'channel refresh ahead of expiry failed');
  });
}

/** The columns a refresh sets. */
const HEALTH_COLUMNS = [
  'display_phone_number', 'verified_name', 'status', 'quality_rating', 'messaging_limit_tier', 'throughput_level', 'throughput_mps', 'auth_error',
  'auth_failed_at', 'auth_retry_at', 'refreshed_at',
] as const satisfies ReadonlyArray<keyof ChannelRow>;

/** A refreshed row's health columns, to lay over another caller's copy of the row. */
function healthOf(row: ChannelRow): Partial<ChannelRow> {
  return Object.fromEntries(HEALTH_COLUMNS.map((column) => [column, row[column]]));
}

/**
 * One network read and its update. Unless `always`, a read begun from a row marked read stores only if the row is
 * still marked read: a quality event (or a token rotation) since cleared the mark, and this read may have begun
 * before the event, so it must not overwrite what the event applied. The channel is then read once more (that read
 * begins after the event was stored, so after the network changed) and that read is stored.
 */
async function readAndStoreHealth(deps: ChannelHealthDeps, channel: ChannelRow, always: boolean): Promise<ChannelRow> {
  let info;
  try {
    info = await deps.network.getPhoneNumber(credentialsOf(channel, deps.secrets));
  } catch (error) {
    if (await noteChannelFailure(deps, channel, error)) {
      const marked = await findChannelById(deps.db, channel.id);
      throw channelAuthError(marked ?? channel);
    }
    throw error;
  }
  const update = {
    display_phone_number: info.display_phone_number,
    verified_name: info.verified_name,
    status: info.status,
    quality_rating: info.quality_rating,
    messaging_limit_tier: info.messaging_limit_tier,
    throughput_level: info.throughput_level ?? null,
    throughput_mps: throughputOfLevel(info.throughput_level),
  };
  const stored = await updateChannelHealth(deps.db, channel.id, update, true, !always && channel.refreshed_at !== null);
  if (!stored) {
    const current = await findChannelById(deps.db, channel.id);
    if (current) return readAndStoreHealth(deps, current, true);
  }
  if (channel.auth_error) await clearChannelAuthFailure(deps.db, channel.id);
  return { ...channel, ...update, auth_error: null, auth_failed_at: null, auth_retry_at: null, refreshed_at: new Date() };
}

/** True when the stored health can be acted on as it is (read from the network recently, no auth error to retry). */
export function healthIsFresh(deps: Pick<ChannelHealthDeps, 'maxAgeMs'>, channel: Pick<ChannelRow, 'refreshed_at' | 'auth_error'>): boolean {
  const age = channel.refreshed_at ? Date.now() - channel.refreshed_at.getTime() : Infinity;
  return age <= deps.maxAgeMs && !channel.auth_error;
}

/**
 * A stored channel with fresh health: the network is asked when the stored read is stale (and in the background,
 * without waiting, once it is past half its maximum age: refreshAhead). A channel held by a
 * channel-level failure is answered from what is stored (no network call) until its back-off passes; then one
 * read tries the token again.
 */
export async function freshChannel(deps: ChannelHealthDeps, channel: ChannelRow): Promise<ChannelRow> {
  if (authHoldReason(channel)) {
    // Never read successfully: there is no last known health to answer with.
    if (!channel.refreshed_at) throw channelAuthError(channel);
    return channel;
  }
  if (healthIsFresh(deps, channel)) {
    refreshAhead(deps, channel);
    return channel;
  }
  try {
    return await refreshChannel(deps, channel);
  } catch (error) {
    if (error instanceof AppError && error.code === 'CHANNEL_AUTH_FAILED') {
      const marked = await findChannelById(deps.db, channel.id);
      if (channel.refreshed_at && marked) return marked;
      throw error;
    }
    // The last known health is still the best answer when the network is briefly unreachable.
    if (channel.refreshed_at) {
      deps.log.warn({ err: error, channelId: channel.id }, 'channel refresh failed; answering with the last known health');
      return channel;
    }
    throw toAppError(error);
  }
}

/** The caller's channel with fresh health; 404 for a missing or another company's channel. */
export async function readChannelHealth(deps: ChannelHealthDeps, companyId: string, channelId: string): Promise<ChannelRow> {
  const channel = await findChannel(deps.db, companyId, channelId);
  if (!channel) throw new AppError('CHANNEL_NOT_FOUND', `Channel ${channelId} was not found.`, { field: 'channel_id' });
  return freshChannel(deps, channel);
}

/** The caller's channels, each refreshed when stale; a channel the network cannot read keeps what is stored. */
export async function listChannelHealth(deps: ChannelHealthDeps, companyId: string): Promise<ChannelRow[]> {
  const rows = await listChannels(deps.db, companyId);
  return Promise.all(rows.map((row) => freshChannel(deps, row).catch(async () => (await findChannelById(deps.db, row.id)) ?? row)));
}
