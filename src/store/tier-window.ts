/**
 * SQL of Meta's tier window: the channel's window lock, its recipients in the moving 24 h (by recipient key: a BSUID,
 * or a phone number; the column keeps its name `phone_number`), the slots held for messages in flight, and the
 * channel's hold while the window is full.
 */
import { sql, type Kysely } from 'kysely';
import { latestLinkedUserId } from './recipient-links.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** The advisory-lock namespace of channels' tier windows (first key; the second is hashtext(channel id)). */
const TIER_WINDOW_LOCK = 7011;

/**
 * Locks a channel's tier window exclusively (a transaction-scoped advisory lock): serialises quota decisions for
 * that channel across requests and instances (the sender's gate, a single send near the quota), and waits for the
 * single sends that reserve under the shared lock (`lockChannelWindowShared`) to commit, so its count includes
 * them. It used to lock the channel row `for update`; that also blocked every insert of a message of the channel
 * (its foreign key takes a key-share lock of the row) and, with the shared lock, could close a circle (a single
 * send holding the shared lock waits for the row, the gate holding the row waits for the shared lock).
 */
export async function lockChannel(db: Db, channelId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${TIER_WINDOW_LOCK}, hashtext(${channelId}))`.execute(db);
}

/**
 * The shared lock of a channel's tier window: single sends far from the quota reserve in parallel under it, and
 * none of them while an exclusive quota decision (`lockChannel`) runs.
 */
export async function lockChannelWindowShared(db: Db, channelId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock_shared(${TIER_WINDOW_LOCK}, hashtext(${channelId}))`.execute(db);
}

/**
 * The channel's window use and whether the recipient is already in it (then it costs no slot): one statement.
 * `identities` are the recipient's key and aliases (an entry under any of them counts).
 */
export async function readWindowUse(db: Db, channelId: string, identities: string[], windowSeconds = TIER_WINDOW_SECONDS): Promise<{ used: number; inWindow: boolean }> {
  const result = await sql<{ used: number; in_window: boolean }>`
    select count(*)::int as used, coalesce(bool_or(phone_number = any(${identities}::text[])), false) as in_window from tier_recipients
    where channel_id = ${channelId} and last_sent_at > now() - make_interval(secs => ${windowSeconds})`.execute(db);
  return { used: result.rows[0]?.used ?? 0, inWindow: result.rows[0]?.in_window ?? false };
}

/**
 * The most transactions the database runs at once (`max_connections`): a bound on the single sends that can hold
 * the shared window lock together, each reserving at most one slot.
 */
export async function readMaxConnections(db: Db): Promise<number> {
  const result = await sql<{ n: number }>`select current_setting('max_connections')::int as n`.execute(db);
  return result.rows[0]?.n ?? 100;
}

/** Meta's tier window: unique recipients of business-initiated sends in a moving 24 h. */
export const TIER_WINDOW_SECONDS = 24 * 3600;

/** How many unique recipients the channel reached (or holds a slot for) in the rolling window. */
export async function countWindowRecipients(db: Db, channelId: string, windowSeconds = TIER_WINDOW_SECONDS): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(*)::int as n from tier_recipients
    where channel_id = ${channelId} and last_sent_at > now() - make_interval(secs => ${windowSeconds})`.execute(db);
  return result.rows[0]?.n ?? 0;
}

/** Which of these recipient keys (or aliases) the channel already reached in the rolling window (they cost no quota). */
export async function findWindowRecipients(db: Db, channelId: string, numbers: string[], windowSeconds = TIER_WINDOW_SECONDS): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const result = await sql<{ phone_number: string }>`
    select phone_number from tier_recipients
    where channel_id = ${channelId} and phone_number = any(${numbers}::text[])
      and last_sent_at > now() - make_interval(secs => ${windowSeconds})`.execute(db);
  return new Set(result.rows.map((r) => r.phone_number));
}

/**
 * Reserves a slot for each number not in the window (a number whose last window expired starts a new one);
 * `messageIds[i]` names the message the slot is held for until the network accepts it (or gives it back).
 */
export async function reserveWindowRecipients(
  db: Db,
  channelId: string,
  numbers: string[],
  windowSeconds = TIER_WINDOW_SECONDS,
  messageIds: Array<string | null> = [],
): Promise<void> {
  if (numbers.length === 0) return;
  const ids = numbers.map((_, i) => messageIds[i] ?? null);
  await sql`
    insert into tier_recipients (channel_id, phone_number, last_sent_at, pending_message_id)
    select ${channelId}, r.n, now(), r.id from unnest(${numbers}::text[], ${ids}::text[]) as r(n, id)
    on conflict (channel_id, phone_number) do update set last_sent_at = now(), pending_message_id = excluded.pending_message_id
      where tier_recipients.last_sent_at <= now() - make_interval(secs => ${windowSeconds})`.execute(db);
}

/**
 * The network accepted these messages: each recipient counts from this, its latest send (Meta's moving
 * window), and a slot held for the message is now spent. A recipient with no slot (a channel with no cap
 * reserves none) is recorded here, so an unlimited channel's use is counted like a capped one's.
 *
 * The window's column `phone_number` holds the recipient key (engine/recipient-keys.ts): the message's BSUID, else
 * the BSUID the network linked to its phone number (the latest link, as findUserIdsOfPhones reads it), else the
 * phone number. A slot held for the message is spent under the key it was reserved with (a link that arrived since
 * would otherwise count the person twice); a message with none is recorded under its key, and the entry the person
 * had under the phone number before the link is folded into the key's.
 */
export async function confirmWindowSends(db: Db, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  // Each message's held slots are read by a probe of the partial index of held slots (a lateral the `offset 0` keeps
  // apart: flattened into a join, planned without statistics, it scanned every recipient of the window), and the
  // rows are updated by their addresses (one TID scan). The ids are named once: an `= any(ids)` beside the join's
  // own key became a second condition of every probe, and PostgreSQL 15 walks the whole array on each (n² a batch).
  // The join back to `held` returns each slot's message and skips a slot changed meanwhile (its address moved).
  const held = await sql<{ id: string }>`
    with held as materialized (
      select s.address, u.id from unnest(${messageIds}::text[]) as u(id)
      cross join lateral (select t2.ctid as address from tier_recipients t2 where t2.pending_message_id = u.id offset 0) s
    )
    update tier_recipients t set last_sent_at = now(), pending_message_id = null
    from held h
    where t.ctid = any(array(select address from held)) and t.ctid = h.address and t.pending_message_id = h.id
    returning h.id`.execute(db);
  const spent = new Set(held.rows.map((r) => r.id));
  const rest = messageIds.filter((id) => !spent.has(id));
  if (rest.length === 0) return;
  await sql`
    with sent as (
      select distinct m.channel_id, m.phone_number,
        coalesce(m.user_id, ${latestLinkedUserId(sql.ref('m.company_id'), sql.ref('m.phone_number'))}, m.phone_number) as key
      from messages m where m.id = any(${rest}::text[])
    ),
    folded as (
      -- The entries are found by one primary-key probe a message (a lateral its limit keeps apart) and deleted by
      -- their row address: a join of the sent rows with the table was planned, without statistics, as a scan of every
      -- recipient of the window on each hand-off. An entry changed meanwhile is deleted only while it holds no slot:
      -- PostgreSQL re-checks pending_message_id on the new version but not always its address, and that is
      -- harmless here, since the person is recorded under the key by this same statement.
      delete from tier_recipients t
      where t.ctid = any(array(
          select e.ctid from sent s
          cross join lateral (select t2.ctid from tier_recipients t2 where t2.channel_id = s.channel_id and t2.phone_number = s.phone_number limit 1) e
          where s.key <> s.phone_number and s.phone_number not in (select key from sent)))
        and t.pending_message_id is null
    )
    insert into tier_recipients (channel_id, phone_number, last_sent_at)
    select distinct channel_id, key, now() from sent
    order by 1, 2
    on conflict (channel_id, phone_number) do update set last_sent_at = now(), pending_message_id = null`.execute(db);
}

/** Gives back the slots held for these messages (invalid number, refused send, sent back to the queue). */
export async function releaseWindowSlots(db: Db, messageIds: string[]): Promise<number> {
  if (messageIds.length === 0) return 0;
  const result = await sql`delete from tier_recipients where pending_message_id = any(${messageIds}::text[])`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** When the earliest recipient of the channel's window leaves it (null: the window is empty). */
export async function earliestWindowExpiry(db: Db, channelId: string, windowSeconds = TIER_WINDOW_SECONDS): Promise<Date | null> {
  const result = await sql<{ at: Date | null }>`
    select min(last_sent_at) + make_interval(secs => ${windowSeconds}) as at from tier_recipients
    where channel_id = ${channelId} and last_sent_at > now() - make_interval(secs => ${windowSeconds})`.execute(db);
  const at = result.rows[0]?.at;
  return at ? new Date(at) : null;
}

/** Holds the channel's claims until its tier window frees a slot (no row is looked at meanwhile). */
export async function holdChannelForTier(db: Db, channelId: string, until: Date): Promise<void> {
  await sql`
    insert into channel_tier_holds (channel_id, held_until) values (${channelId}, ${until.toISOString()})
    on conflict (channel_id) do update set held_until = excluded.held_until`.execute(db);
}

/** Ends a tier hold early (a single send was accepted into the window: its row must not wait). */
export async function releaseTierHold(db: Db, channelId: string): Promise<void> {
  await sql`delete from channel_tier_holds where channel_id = ${channelId}`.execute(db);
}
/** A channel's use of its tier window: unique recipients in the rolling window and when the earliest leaves it. */
export interface WindowUse {
  used: number;
  frees_at: Date;
}

/** The rolling-window use of each of a company's channels that has any (channels without use are absent). */
export async function windowUseByChannel(db: Db, companyId: string, windowSeconds = TIER_WINDOW_SECONDS): Promise<Map<string, WindowUse>> {
  const result = await sql<{ channel_id: string; used: number; frees_at: Date | string }>`
    select t.channel_id, count(*)::int as used, min(t.last_sent_at) + make_interval(secs => ${windowSeconds}) as frees_at
    from tier_recipients t join channels c on c.id = t.channel_id
    where c.company_id = ${companyId} and t.last_sent_at > now() - make_interval(secs => ${windowSeconds})
    group by t.channel_id`.execute(db);
  return new Map(result.rows.map((r) => [r.channel_id, { used: r.used, frees_at: new Date(r.frees_at) }]));
}
