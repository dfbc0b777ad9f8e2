/**
 * How the lines of a start travel between its passes: the spooled body's lines into the checking pass, and the
 * checked ("ready") lines into the storing pass, either through a file (the whole list is checked before any row
 * is stored) or handed over in memory as they are made (the database stores one part of the list while the
 * service checks the next; see `ReadyHandOff`).
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';

/** Lines read one at a time, awaiting only when none is at hand (one promise a chunk of lines, not a line). */
export interface LineSource {
  /** The next line when one is at hand without waiting; null when `next()` must be awaited. */
  take(): string | null;
  /** The next line, or undefined at the end. */
  next(): Promise<string | undefined>;
}

/** Where the checking pass puts each ready line (without its newline). */
export interface ReadySink {
  /** Takes a line; returns a promise when the caller should wait before the next (a write to make). */
  add(line: string): Promise<void> | undefined;
  /** Hands on the lines added so far (and waits while the sink is full). */
  flush(): Promise<void>;
}

/**
 * The lines of one of our spool files (JSON lines or COPY lines: no line holds a raw newline), read in small
 * chunks. readline reads 64 KiB at a time and queues all its lines at once; while the rows are checked those
 * lines (and their chunk) outlive young collections and pile up in the old generation, so the heap would grow
 * with the file until a full collection. On PGlite the small chunks also give report reads their turns while a start
 * stores its rows: each awaited read of the ready file is a turn of the event loop in which a read's next statement
 * takes the connection, about thirty per 1,000-row batch; with chunks of a batch or more, each of a read's
 * statements would wait behind a COPY statement.
 */
export async function* lineBatches(file: string): AsyncGenerator<string[]> {
  let rest = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 16 * 1024 })) {
    let from = 0;
    const text = rest + (chunk as string);
    const batch: string[] = [];
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', from)) {
      if (end > from) batch.push(text.slice(from, end));
      from = end + 1;
    }
    rest = text.slice(from);
    if (batch.length) yield batch;
  }
  if (rest) yield [rest];
}

/** The lines of one of our spool files, one at a time. */
export async function* textLines(file: string): AsyncGenerator<string> {
  for await (const batch of lineBatches(file)) yield* batch;
}

/** The lines of a spool file one at a time, awaiting only when a chunk's lines are used up (one promise a chunk, not a line). */
export class LineReader implements LineSource {
  private readonly batches: AsyncGenerator<string[]>;
  private batch: string[] = [];
  private k = 0;

  constructor(file: string) {
    this.batches = lineBatches(file);
  }

  /** The next line, or undefined at the end. */
  async next(): Promise<string | undefined> {
    while (this.k >= this.batch.length) {
      const next = await this.batches.next();
      if (next.done) return undefined;
      this.batch = next.value;
      this.k = 0;
    }
    return this.batch[this.k++];
  }

  /** The next line when one is at hand without waiting; null when `next()` must be awaited. */
  take(): string | null {
    return this.k < this.batch.length ? this.batch[this.k++] : null;
  }

  async close(): Promise<void> {
    await this.batches.return(undefined);
  }
}

/** Characters of ready lines gathered before one write to the ready file (a write per row cost more than the row). */
const READY_WRITE_CHARS = 64 * 1024;

/** The ready lines written to a file, read back by a `LineReader` once the whole list is checked. */
export class ReadyFile implements ReadySink {
  private readonly out: WriteStream;
  private text = '';

  constructor(readonly path: string) {
    this.out = createWriteStream(path);
  }

  add(line: string): Promise<void> | undefined {
    this.text += `${line}\n`;
    return this.text.length >= READY_WRITE_CHARS ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    if (!this.text) return;
    const text = this.text;
    this.text = '';
    if (!this.out.write(text)) await once(this.out, 'drain');
  }

  /** Writes what is left and closes the file. */
  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => this.out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
}

/**
 * Most ready lines handed over and not yet taken by the storing pass: the checking pass waits beyond it, so memory
 * stays bounded when the database is the slower side (about a MB of lines). Lines waiting here outlive young
 * collections, each of which copies them, so a few link-lookup chunks' worth keeps both sides busy without more.
 */
const HAND_OFF_LINES = 4_000;

/**
 * Ready lines handed from the checking pass straight to the storing pass, a flush at a time, so the database
 * stores one part of the list while the service checks the next. `end()` after the last flush; `fail()` when the
 * storing side gave up, which the checking side learns at its next flush.
 */
export class ReadyHandOff implements ReadySink, LineSource {
  private readonly chunks: string[][] = [];
  private filling: string[] = [];
  private current: string[] = [];
  private k = 0;
  private waiting = 0;
  private ended = false;
  private failure: { error: unknown } | null = null;
  private wakeTaker: (() => void) | null = null;
  private wakeAdder: (() => void) | null = null;

  add(line: string): undefined {
    this.filling.push(line);
    return undefined;
  }

  async flush(): Promise<void> {
    this.handOver();
    while (this.waiting > HAND_OFF_LINES && !this.failure) await new Promise<void>((resolve) => (this.wakeAdder = resolve));
    if (this.failure) throw this.failure.error;
  }

  /** No line follows: the taker gets `undefined` once it has taken every line handed over. */
  end(): void {
    this.handOver();
    this.ended = true;
    this.wake('taker');
  }

  /** The storing side failed: the checking side's next flush throws `error`. */
  fail(error: unknown): void {
    this.failure ??= { error };
    this.wake('adder');
  }

  take(): string | null {
    while (this.k >= this.current.length) {
      const chunk = this.chunks.shift();
      if (chunk === undefined) return null;
      this.waiting -= chunk.length;
      this.current = chunk;
      this.k = 0;
      this.wake('adder');
    }
    return this.current[this.k++];
  }

  async next(): Promise<string | undefined> {
    for (;;) {
      const line = this.take();
      if (line !== null) return line;
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => (this.wakeTaker = resolve));
    }
  }

  private handOver(): void {
    if (this.filling.length === 0) return;
    this.chunks.push(this.filling);
    this.waiting += this.filling.length;
    this.filling = [];
    this.wake('taker');
  }

  private wake(side: 'taker' | 'adder'): void {
    const wake = side === 'taker' ? this.wakeTaker : this.wakeAdder;
    if (side === 'taker') this.wakeTaker = null;
    else this.wakeAdder = null;
    wake?.();
  }
}
