/**
 * A channel's health (status, quality, tier) as the service should act on it: the stored values when they
 * were read from the network recently, otherwise a fresh `GET /{phone-number-id}`. Webhooks mark a
 * channel stale, so the next read asks the network again.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { SecretBox } from '../domain/secret-box.js';
import { AppError } from '../errors.js';
import type { NetworkPort } from '../network/port.js';
import { findChannel, listChannels, updateChannelHealth, type ChannelRow } from '../store/channels.js';
import type { Database } from '../store/schema.js';
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

/** Reads a stored channel's health from the network and stores it; returns the updated row. */
export async function refreshChannel(deps: ChannelHealthDeps, channel: ChannelRow): Promise<ChannelRow> {
  const info = await deps.network.getPhoneNumber(credentialsOf(channel, deps.secrets));
  const update = {
    display_phone_number: info.display_phone_number,
    verified_name: info.verified_name,
    status: info.status,
    quality_rating: info.quality_rating,
    messaging_limit_tier: info.messaging_limit_tier,
  };
  await updateChannelHealth(deps.db, channel.id, update, true);
  return { ...channel, ...update, refreshed_at: new Date() };
}

/** A stored channel with fresh health: the network is asked when the stored read is stale. */
export async function freshChannel(deps: ChannelHealthDeps, channel: ChannelRow): Promise<ChannelRow> {
  const age = channel.refreshed_at ? Date.now() - channel.refreshed_at.getTime() : Infinity;
  if (age <= deps.maxAgeMs) return channel;
  try {
    return await refreshChannel(deps, channel);
  } catch (error) {
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
  return Promise.all(rows.map((row) => freshChannel(deps, row).catch(() => row)));
}
