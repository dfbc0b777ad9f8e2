import { randomBytes } from 'node:crypto';

/**
 * A 24-hex id in the shape of the interface's `_id` values: 4 bytes of seconds since the epoch then 8
 * random bytes, so ids sort roughly by creation time and never collide in practice.
 */
export function newId(now: number = Date.now()): string {
  const seconds = Math.floor(now / 1000).toString(16).padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}

/** `count` new ids (as newId) from one read of the random source. */
export function newIds(count: number, now: number = Date.now()): string[] {
  const seconds = Math.floor(now / 1000).toString(16).padStart(8, '0');
  const random = randomBytes(8 * count).toString('hex');
  return Array.from({ length: count }, (_, i) => seconds + random.slice(16 * i, 16 * i + 16));
}
