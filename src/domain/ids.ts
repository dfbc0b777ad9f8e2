import { randomBytes } from 'node:crypto';

/**
 * Ids in the shape of the interface's `_id` values (MongoDB ObjectIds): 4 bytes of seconds since the epoch, 5 random
 * bytes drawn once per process, then a 3-byte counter that starts at a random value. Ids never collide in practice
 * (another process draws other random bytes), and the ids one process makes increase: a bulk start's rows go into
 * the primary key and the claim index (`channel_id, due_at, id`) at their right-hand end instead of at random
 * places, which made storing a large list touch pages all over those indexes.
 */
const PROCESS_BYTES = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

const secondsOf = (now: number) => Math.floor(now / 1000).toString(16).padStart(8, '0');

function nextId(seconds: string): string {
  counter = (counter + 1) % 0x1000000;
  return seconds + PROCESS_BYTES + counter.toString(16).padStart(6, '0');
}

/** A new 24-hex id. */
export function newId(now: number = Date.now()): string {
  return nextId(secondsOf(now));
}

/** `count` new ids (as newId), in increasing order. */
export function newIds(count: number, now: number = Date.now()): string[] {
  const seconds = secondsOf(now);
  return Array.from({ length: count }, () => nextId(seconds));
}
