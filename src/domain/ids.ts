import { randomBytes } from 'node:crypto';

/**
 * A 24-hex id in the shape of the interface's `_id` values: 4 bytes of seconds since the epoch then 8
 * random bytes, so ids sort roughly by creation time and never collide in practice.
 */
export function newId(now: number = Date.now()): string {
  const seconds = Math.floor(now / 1000).toString(16).padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}
