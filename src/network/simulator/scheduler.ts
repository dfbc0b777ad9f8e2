/** The simulator's seeded randomness and its single-timer task scheduler. */

/** A seeded PRNG (mulberry32): the same seed gives the same sequence, so runs are reproducible. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** True with probability `p` (never draws when p is 0 or 1, so knobs at 0 do not shift the sequence). */
  chance(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.next() < p;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

interface Task {
  due: number;
  seq: number;
  run: () => void;
}

/**
 * Runs tasks at their due times with one timer and a binary min-heap, so a million pending statuses cost
 * no timers. After each round of due tasks `afterRound` runs: the webhook sender flushes its batches there,
 * which is what puts statuses that fall due together into one body.
 */
export class Scheduler {
  private heap: Task[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerDue = Infinity;
  private stopped = false;
  private inRound = false;
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(private readonly afterRound: () => void) {}

  /** Runs `run` once, `delayMs` from now. */
  after(delayMs: number, run: () => void): void {
    if (this.stopped) return;
    this.push({ due: Date.now() + Math.max(0, delayMs), seq: this.seq++, run });
    this.arm();
  }

  /** Makes `afterRound` run soon: at the end of the current round, or in a round of its own. */
  flushSoon(): void {
    if (this.inRound || this.stopped || this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.afterRound();
    }, 0);
  }

  /** Number of tasks waiting. */
  get size(): number {
    return this.heap.length;
  }

  /** Drops every waiting task (reset). */
  clear(): void {
    this.heap = [];
    this.disarm();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }

  /** Drops every task and refuses new ones. */
  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private arm(): void {
    const first = this.heap[0];
    if (!first || first.due >= this.timerDue) return;
    this.disarm();
    this.timerDue = first.due;
    this.timer = setTimeout(() => this.round(), Math.max(0, first.due - Date.now()));
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = Infinity;
  }

  private round(): void {
    this.timer = null;
    this.timerDue = Infinity;
    const now = Date.now();
    this.inRound = true;
    try {
      while (this.heap.length > 0 && this.heap[0].due <= now) this.pop().run();
    } finally {
      this.inRound = false;
    }
    this.afterRound();
    this.arm();
  }

  private less(a: Task, b: Task): boolean {
    return a.due < b.due || (a.due === b.due && a.seq < b.seq);
  }

  private push(task: Task): void {
    const h = this.heap;
    h.push(task);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private pop(): Task {
    const h = this.heap;
    const top = h[0];
    const last = h.pop() as Task;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l], h[m])) m = l;
        if (r < h.length && this.less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}
