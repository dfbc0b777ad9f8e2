/** SQL of who sends for which channel: channel send leases and the instances' heartbeats. */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/**
 * Takes or renews the send lease of a channel: free, expired, or already ours. One instance at a time
 * sends for a channel, so its throughput cap holds across instances. Returns whether we hold it.
 */
export async function acquireChannelLease(db: Db, channelId: string, owner: string, seconds: number): Promise<boolean> {
  const result = await sql<{ owner: string }>`
    insert into channel_leases (channel_id, owner, lease_until)
    values (${channelId}, ${owner}, now() + make_interval(secs => ${seconds}))
    on conflict (channel_id) do update set owner = excluded.owner, lease_until = excluded.lease_until
      where channel_leases.owner = excluded.owner or channel_leases.lease_until < now()
    returning owner`.execute(db);
  return result.rows.length > 0;
}

/** Gives a channel lease up (clean shutdown), so another instance can take over at once. */
export async function releaseChannelLeases(db: Db, owner: string): Promise<void> {
  await sql`delete from channel_leases where owner = ${owner}`.execute(db);
}

/** Every channel send lease: its owner and whether it is live by the database's clock. */
export async function listChannelLeases(db: Db): Promise<Array<{ channel_id: string; owner: string; live: boolean }>> {
  const result = await sql<{ channel_id: string; owner: string; live: boolean }>`
    select channel_id, owner, lease_until > now() as live from channel_leases`.execute(db);
  return result.rows;
}

/**
 * Hands one of our channel leases back (the channel is over our fair share; its sender has finished): nobody,
 * not even we, may take it for `guardSeconds` (the pair gap, so no recipient hears from two senders within it),
 * then any instance with room does. The owner becomes `handover:<owner>` for that while.
 */
export async function handOverChannelLease(db: Db, channelId: string, owner: string, guardSeconds: number): Promise<void> {
  await sql`
    update channel_leases set owner = ${`handover:${owner}`}, lease_until = now() + make_interval(secs => ${guardSeconds})
    where channel_id = ${channelId} and owner = ${owner}`.execute(db);
}

/**
 * Registers this instance (or renews its registration) until `seconds` from now, and returns how many instances
 * are alive, this one included: the divisor of the fair share of channels.
 */
export async function beatInstanceHeartbeat(db: Db, owner: string, seconds: number): Promise<number> {
  const result = await sql<{ n: number }>`
    with beat as (
      insert into dispatcher_instances (owner, seen_until) values (${owner}, now() + make_interval(secs => ${seconds}))
      on conflict (owner) do update set seen_until = excluded.seen_until
      returning owner)
    select 1 + (select count(*)::int from dispatcher_instances where seen_until > now() and owner <> ${owner}) as n`.execute(db);
  return result.rows[0]?.n ?? 1;
}

/** Removes this instance's registration (clean shutdown): the others count without it at once. */
export async function deleteInstance(db: Db, owner: string): Promise<void> {
  await sql`delete from dispatcher_instances where owner = ${owner}`.execute(db);
}

/** Forgets instances not seen for an hour (dead ones; they stopped counting when their heartbeat ran out). */
export async function deleteDeadInstances(db: Db): Promise<void> {
  await sql`delete from dispatcher_instances where seen_until < now() - interval '1 hour'`.execute(db);
}
/** Single-process databases (PGlite) only: nobody else can hold a lease, so every lease is dropped at start. */
export async function dropAllChannelLeases(db: Db): Promise<void> {
  await sql`delete from channel_leases`.execute(db);
}
