/**
 * A table of strings kept in a scratch file and looked up by index: an XLSX workbook's shared strings (one per
 * distinct cell text, so a million or more for a list of a million phone numbers) without holding them in memory.
 * The texts go to the file in writes of about 64 KiB; their end offsets live in a typed array (4 bytes a string,
 * grown by doubling); a lookup is one positioned read. Written first, read after `seal()`.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

const WRITE_CHUNK = 64 * 1024;
/** Offsets are 32-bit: the table holds at most 4 GiB of text. */
const MAX_BYTES = 2 ** 32 - 1;

export class DiskStringTable {
  private readonly fd: number;
  private ends = new Uint32Array(4096);
  private count = 0;
  private bytes = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readBuffer = Buffer.alloc(4096);

  /** Creates (or empties) the scratch file at `path`; the caller removes it. */
  constructor(path: string) {
    this.fd = openSync(path, 'w+');
  }

  /** Number of strings added. */
  get size(): number {
    return this.count;
  }

  /** Adds the next string (its index is the number of strings added before it). */
  add(text: string): void {
    const data = Buffer.from(text, 'utf8');
    if (this.bytes + data.length > MAX_BYTES) throw new RangeError('the table holds at most 4 GiB of text');
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.bytes += data.length;
    this.ends[this.count] = this.bytes;
    this.count += 1;
    this.pending.push(data);
    this.pendingBytes += data.length;
    if (this.pendingBytes >= WRITE_CHUNK) this.flush();
  }

  /** Writes what is pending; call once all strings are added, before `get`. */
  seal(): void {
    this.flush();
  }

  /** The string at `index`, or undefined past the end. */
  get(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined;
    const start = index === 0 ? 0 : this.ends[index - 1];
    const length = this.ends[index] - start;
    if (length === 0) return '';
    if (length > this.readBuffer.length) this.readBuffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) read += readSync(this.fd, this.readBuffer, read, length - read, start + read);
    return this.readBuffer.toString('utf8', 0, length);
  }

  /** Closes the file (it stays on disk for the caller to remove). */
  close(): void {
    closeSync(this.fd);
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const data = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    let written = 0;
    while (written < data.length) written += writeSync(this.fd, data, written);
  }
}
