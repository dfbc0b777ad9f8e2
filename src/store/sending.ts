/** SQL for what sending needs besides messages: channel send leases, the tier window and suppressed numbers. */
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

/** Locks a channel row: serialises quota decisions for that channel across requests and instances. */
export async function lockChannel(db: Db, channelId: string): Promise<void> {
  await sql`select id from channels where id = ${channelId} for update`.execute(db);
}

/** How many unique recipients the channel reached in the rolling 24 h. */
export async function countWindowRecipients(db: Db, channelId: string): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(*)::int as n from tier_recipients
    where channel_id = ${channelId} and first_sent_at > now() - interval '24 hours'`.execute(db);
  return result.rows[0]?.n ?? 0;
}

/** Which of these numbers the channel already reached in the rolling 24 h (they cost no quota). */
export async function findWindowRecipients(db: Db, channelId: string, numbers: string[]): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const result = await sql<{ phone_number: string }>`
    select phone_number from tier_recipients
    where channel_id = ${channelId} and phone_number = any(${numbers}::text[])
      and first_sent_at > now() - interval '24 hours'`.execute(db);
  return new Set(result.rows.map((r) => r.phone_number));
}

/** Counts numbers into the window (a number whose last window expired starts a new one). */
export async function reserveWindowRecipients(db: Db, channelId: string, numbers: string[]): Promise<void> {
  if (numbers.length === 0) return;
  await sql`
    insert into tier_recipients (channel_id, phone_number, first_sent_at)
    select ${channelId}, n, now() from unnest(${numbers}::text[]) as n
    on conflict (channel_id, phone_number) do update set first_sent_at = now()
      where tier_recipients.first_sent_at <= now() - interval '24 hours'`.execute(db);
}

/** The company's suppressed numbers among these (opted out, or known invalid after 131026). */
export async function findSuppressed(db: Db, companyId: string, numbers: string[]): Promise<Map<string, string>> {
  if (numbers.length === 0) return new Map();
  const result = await sql<{ phone_number: string; reason: string }>`
    select phone_number, reason from suppressed_numbers
    where company_id = ${companyId} and phone_number = any(${numbers}::text[])`.execute(db);
  return new Map(result.rows.map((r) => [r.phone_number, r.reason]));
}

/** Adds a number to the company's suppression list (idempotent). */
export async function suppressNumber(db: Db, companyId: string, phoneNumber: string, reason: string): Promise<void> {
  await sql`
    insert into suppressed_numbers (company_id, phone_number, reason) values (${companyId}, ${phoneNumber}, ${reason})
    on conflict do nothing`.execute(db);
}

/** Single-process databases (PGlite) only: nobody else can hold a lease, so every lease is dropped at start. */
export async function dropAllChannelLeases(db: Db): Promise<void> {
  await sql`delete from channel_leases`.execute(db);
}
