/**
 * How instances sharing one database spread the channels with due work: each live instance sends for at most
 * its fair share, ceil(channels with due work ÷ live instances), and prefers the channels that rank highest for
 * it by rendezvous hashing (so two instances seldom reach for the same free channel, and a channel tends to stay
 * with the same instance while the set of instances stays the same). An instance over its share hands the
 * surplus back (its least preferred channels first, idle leases before running senders). The shares add up
 * to at least the number of channels, so while an instance is over its share another is under it and takes
 * what is handed back. Pure rule: the dispatcher supplies what it read (due channels, leases, its senders).
 */
import { fmix32 } from './mix32.js';

/** A channel's send lease as read from the database. */
export interface LeaseView {
  owner: string;
  /** `lease_until > now()` by the database's clock. */
  live: boolean;
}

/** What the share rule needs to know. */
export interface ShareInput {
  /** This instance's lease owner name. */
  owner: string;
  /** Live instances (this one included; at least 1). */
  instances: number;
  /** Channels with due work. */
  due: readonly string[];
  /** Send leases by channel id (absent: none). */
  leases: ReadonlyMap<string, LeaseView>;
  /** Channels this instance runs a sender for (and is not handing back). */
  running: ReadonlySet<string>;
  /** Channels this instance is handing back (their senders are finishing): neither kept nor taken. */
  leaving: ReadonlySet<string>;
}

/** What the instance does this round. */
export interface SharePlan {
  /** Its share: ceil(due ÷ instances). */
  share: number;
  /** Channels it keeps (its lease) that have no sender yet: renew the lease and start one. */
  resume: string[];
  /** Free channels (no live lease) to try to take, best first, at most the room left in its share. */
  take: string[];
  /** Channels over its share: stop their senders and hand their leases back. */
  handBack: string[];
}

/** The fair share of one instance: ceil(channels ÷ instances) (0 without channels). */
export function fairShare(channels: number, instances: number): number {
  return channels === 0 ? 0 : Math.ceil(channels / Math.max(1, instances));
}

/** The rendezvous (highest random weight) score of a channel for an instance: FNV-1a of both names, mixed. */
export function rendezvousScore(owner: string, channelId: string): number {
  let h = 0x811c9dc5;
  const key = `${owner}\u0000${channelId}`;
  for (let i = 0; i < key.length; i += 1) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // A final avalanche, so names differing only at the end still spread.
  return fmix32(h);
}

/** This round's plan for one instance. */
export function planChannelShare(input: ShareInput): SharePlan {
  const { owner, due, leases, running, leaving } = input;
  const share = fairShare(due.length, input.instances);
  const score = new Map(due.map((c) => [c, rendezvousScore(owner, c)] as const));
  const byPreference = (a: string, b: string) => score.get(b)! - score.get(a)! || (a < b ? -1 : a > b ? 1 : 0);
  const isMine = (c: string) => running.has(c) || (leases.get(c)?.owner === owner && leases.get(c)!.live);
  const mine = due.filter((c) => !leaving.has(c) && isMine(c));
  // Running senders are kept before idle leases (handing an idle lease back costs no drain), then by preference.
  mine.sort((a, b) => Number(running.has(b)) - Number(running.has(a)) || byPreference(a, b));
  const kept = mine.slice(0, share);
  const handBack = mine.slice(share);
  const resume = kept.filter((c) => !running.has(c));
  const room = share - kept.length;
  const take = room <= 0
    ? []
    : due
      .filter((c) => !leaving.has(c) && !isMine(c) && !leases.get(c)?.live)
      .sort(byPreference)
      .slice(0, room);
  return { share, resume, take, handBack };
}
