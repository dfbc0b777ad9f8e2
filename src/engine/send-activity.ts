/**
 * Whether this process is sending bulk sends: a sustained stream of hand-offs of bulk-send messages (sent outcomes
 * written; single sends do not count), each at most `gapMs` after the one before, for at least `gapMs`. The webhook inbox holds status bodies while it is, so the statuses of
 * one message that arrive within the hold are applied together; a lone single send does not count, and the stream
 * ends `gapMs` after its last hand-off, so the last statuses of a send are not held.
 */
export class SendActivity {
  /** When the current stream of hand-offs began, and its last hand-off (`now()` ms). */
  private first = -Infinity;
  private last = -Infinity;

  constructor(
    private readonly gapMs = 500,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Sent outcomes were written (one call per hand-off flush). */
  handedOff(): void {
    const now = this.now();
    if (now - this.last > this.gapMs) this.first = now;
    this.last = now;
  }

  /** Until when (`now()` ms) sending goes on without another hand-off; -Infinity when this process is not sending. */
  until(): number {
    const end = this.last + this.gapMs;
    return this.last - this.first >= this.gapMs && end > this.now() ? end : -Infinity;
  }
}
