/**
 * A set of phone numbers (E.164 digits as whole numbers, below 10^15) for dropping a bulk send's duplicate
 * rows: open addressing with linear probing in one Float64Array sized from the row count (load at most
 * one half), so a 1,000,000-row start holds 16 MB outside the JavaScript heap. A JavaScript `Set` of the same
 * numbers took about 35 MB of heap (and twice that while it rehashed), and the heap V8 lets grow before it
 * collects is a multiple of the live heap, so the start's peak memory grew with its row count.
 */
import { fmix32 } from './mix32.js';

export class NumberSet {
  private slots: Float64Array;
  private mask: number;
  /** Numbers held. */
  size = 0;

  /** A set for up to about `expected` numbers (it grows if more come). */
  constructor(expected: number) {
    const capacity = NumberSet.capacityFor(expected);
    this.slots = new Float64Array(capacity);
    this.mask = capacity - 1;
  }

  private static capacityFor(count: number): number {
    let capacity = 16;
    while (capacity < count * 2) capacity *= 2;
    return capacity;
  }

  /** Adds `n` (a whole number from 1 to 2^53 - 1); answers false when it was already held. */
  add(n: number): boolean {
    if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`NumberSet holds whole numbers from 1, not ${n}`);
    let i = hash(n) & this.mask;
    for (;;) {
      const held = this.slots[i];
      if (held === 0) break;
      if (held === n) return false;
      i = (i + 1) & this.mask;
    }
    this.slots[i] = n;
    this.size += 1;
    if (this.size * 2 > this.slots.length) this.grow();
    return true;
  }

  /** Whether `n` is held. */
  has(n: number): boolean {
    let i = hash(n) & this.mask;
    for (;;) {
      const held = this.slots[i];
      if (held === 0) return false;
      if (held === n) return true;
      i = (i + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    this.mask = this.slots.length - 1;
    for (const n of old) {
      if (n === 0) continue;
      let i = hash(n) & this.mask;
      while (this.slots[i] !== 0) i = (i + 1) & this.mask;
      this.slots[i] = n;
    }
  }
}

/** Mixes both 32-bit halves of a number below 2^53 (murmur3's finaliser). */
function hash(n: number): number {
  return fmix32((n >>> 0) ^ Math.imul(Math.floor(n / 4294967296), 0x9e3779b1));
}
