/**
 * Reads a bulk-start body as a stream: the top-level fields are kept, the `rows` array goes row by row to
 * a temporary JSON-lines file. Memory stays flat whatever the row count (the interface lists `rows` before
 * `channel_id` and `param_headers`, so rows can only be checked once the whole body has been read).
 *
 * The body is cut into values by a scanner that only follows strings and brackets; each top-level field is then
 * checked and parsed by JSON.parse, and a row goes to the file as its own text, parsed once, by the start's first
 * pass (startBulkSend), which answers a row that is not JSON with INVALID_JSON. A token-by-token parser cost
 * several times more CPU per row than the rest of the start's first pass.
 */
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { MAX_JSON_DEPTH, TOO_DEEP_MESSAGE } from '../domain/json-depth.js';
import { AppError } from '../errors.js';
import { traceStart } from './start-trace.js';

/** What the spool kept. */
export interface Spooled {
  fields: Record<string, unknown>;
  rowCount: number;
  /** A file start's column headers, one per `param_headers` entry (errors name the file's columns). */
  labels?: string[];
}

/** Limits of a spooled body. */
export interface SpoolLimits {
  maxRows: number;
  maxBytes: number;
  /** Tokens a non-row field may have (they are small: ids, numbers, a header list). */
  maxFieldTokens: number;
}

/** Characters of rows gathered before one write to the spool file. */
const WRITE_CHARS = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const opens = (c: number) => c === 0x7b || c === 0x5b;
const closes = (c: number) => c === 0x7d || c === 0x5d;

/** Whether a parsed value holds the NUL character in a string or a property name (no recursion: depth is bounded anyway). */
function holdsNul(value: unknown): boolean {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (v && typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) {
        if (k.includes('\u0000')) return true;
        stack.push(inner);
      }
    }
  }
  return false;
}

class SpoolFailure extends Error {
  constructor(readonly appError: AppError) {
    super(appError.message);
  }
}

const invalidJson = () => new SpoolFailure(new AppError('INVALID_JSON', undefined, { field: 'body' }));
const tooDeep = () => new SpoolFailure(new AppError('VALIDATION_FAILED', TOO_DEEP_MESSAGE, { field: 'body' }));

/**
 * Where the scanner is in the body: before the root object, before a key (`key`, or `firstKey` right after `{`),
 * before the colon, before a field's value, after a field's value, at the start of `rows`, before a row (after a
 * comma), after a row, after the root object.
 */
type Mode = 'root' | 'firstKey' | 'key' | 'colon' | 'value' | 'afterValue' | 'firstRow' | 'row' | 'afterRow' | 'end';

/** Cuts a body into its top-level fields and its rows, chunk by chunk. */
class BodyScanner {
  fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  rowCount = 0;
  private buf = '';
  private pos = 0;
  private mode: Mode = 'root';
  private key: string | null = null;
  // The token being scanned (a key or a value), resumable across chunks: its text from earlier chunks (`parts`),
  // where it starts in this chunk (`from`), how far it was scanned, its nesting, whether the scan is inside a
  // string (and just after a backslash), its tokens (as a streaming JSON parser counts them).
  private active = false;
  private kind: 'container' | 'string' | 'scalar' = 'scalar';
  private parts: string[] = [];
  private from = 0;
  private scanAt = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private tokens = 0;
  private afterStructural = true;

  constructor(
    private readonly limits: SpoolLimits,
    private readonly row: (text: string) => void,
  ) {}

  /** Scans a chunk; throws SpoolFailure. */
  feed(chunk: string): void {
    this.buf = this.active ? chunk : this.buf.slice(this.pos) + chunk;
    this.pos = 0;
    this.from = 0;
    this.scanAt = 0;
    this.run(false);
    if (this.active) this.parts.push(this.buf.slice(this.from));
  }

  /** The body ended: what is left must close the root object. */
  finish(): void {
    this.buf = this.active ? '' : this.buf.slice(this.pos);
    this.pos = 0;
    this.from = 0;
    this.scanAt = 0;
    this.run(true);
    if (this.mode !== 'end' || this.active) throw invalidJson();
  }

  private run(ended: boolean): void {
    const buf = this.buf;
    for (;;) {
      if (this.active) {
        const text = this.scan(ended);
        if (text === null) return;
        this.took(text);
        continue;
      }
      while (this.pos < buf.length && isSpace(buf.charCodeAt(this.pos))) this.pos += 1;
      if (this.pos >= buf.length) return;
      const c = buf.charCodeAt(this.pos);
      switch (this.mode) {
        case 'root':
          if (c !== 0x7b) {
            // Another JSON value is not an object; anything else is not JSON.
            if (!/["[\-0-9tfn]/.test(buf[this.pos])) throw invalidJson();
            throw new SpoolFailure(new AppError('VALIDATION_FAILED', 'The body must be a JSON object.', { field: 'body' }));
          }
          this.pos += 1;
          this.mode = 'firstKey';
          break;
        case 'firstKey':
        case 'key':
          if (c === 0x7d && this.mode === 'firstKey') {
            this.pos += 1;
            this.mode = 'end';
            break;
          }
          if (c !== QUOTE) throw invalidJson();
          this.begin();
          break;
        case 'colon':
          if (c !== COLON) throw invalidJson();
          this.pos += 1;
          this.mode = 'value';
          break;
        case 'value':
          if (c === 0x5b && this.key === 'rows') {
            this.pos += 1;
            this.key = null;
            this.fields.rows = true;
            this.mode = 'firstRow';
            break;
          }
          this.begin();
          break;
        case 'afterValue':
          if (c === COMMA) this.mode = 'key';
          else if (c === 0x7d) this.mode = 'end';
          else throw invalidJson();
          this.pos += 1;
          break;
        case 'firstRow':
        case 'row':
          if (c === 0x5d && this.mode === 'firstRow') {
            this.pos += 1;
            this.mode = 'afterValue';
            break;
          }
          this.begin();
          break;
        case 'afterRow':
          if (c === COMMA) this.mode = 'row';
          else if (c === 0x5d) this.mode = 'afterValue';
          else throw invalidJson();
          this.pos += 1;
          break;
        case 'end':
          throw invalidJson();
      }
    }
  }

  /** A key or a value starts at `pos`. */
  private begin(): void {
    const c = this.buf.charCodeAt(this.pos);
    this.active = true;
    this.kind = opens(c) ? 'container' : c === QUOTE ? 'string' : 'scalar';
    this.parts = [];
    this.from = this.pos;
    this.scanAt = this.pos + (this.kind === 'scalar' ? 0 : 1);
    this.depth = this.kind === 'container' ? 1 : 0;
    this.inString = this.kind === 'string';
    this.escaped = false;
    this.tokens = 1;
    this.afterStructural = this.kind === 'container';
    if (this.kind === 'container') this.checkDepth();
  }

  /** How deep the token nests in the body: the root object is 1, `rows` 2. */
  private checkDepth(): void {
    const outer = this.mode === 'firstRow' || this.mode === 'row' ? 2 : 1;
    if (this.depth + outer > MAX_JSON_DEPTH) throw tooDeep();
  }

  /** Scans the token on to its end: its whole text, or null when it goes on in the next chunk. */
  private scan(ended: boolean): string | null {
    const buf = this.buf;
    const n = buf.length;
    const kind = this.kind;
    const limited = kind === 'container' && this.mode === 'value';
    const maxDepth = MAX_JSON_DEPTH - (this.mode === 'firstRow' || this.mode === 'row' ? 2 : 1);
    // The scan's state in locals while it runs over every character (kept in the fields between chunks).
    let inString = this.inString;
    let escaped = this.escaped;
    let depth = this.depth;
    let tokens = this.tokens;
    let afterStructural = this.afterStructural;
    let i = this.scanAt;
    let end = -1;
    while (i < n) {
      const c = buf.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (kind === 'string') {
            end = i + 1;
            break;
          }
        }
        i += 1;
        continue;
      }
      if (kind === 'scalar') {
        if (c === COMMA || closes(c) || isSpace(c)) {
          end = i;
          break;
        }
        i += 1;
        continue;
      }
      if (c === QUOTE) {
        inString = true;
        tokens += 1;
        afterStructural = false;
      } else if (opens(c)) {
        depth += 1;
        tokens += 1;
        afterStructural = true;
        if (depth > maxDepth) throw tooDeep();
      } else if (closes(c)) {
        depth -= 1;
        tokens += 1;
        afterStructural = false;
        if (depth === 0) end = i + 1;
      } else if (c === COMMA || c === COLON) {
        afterStructural = true;
      } else if (!isSpace(c) && afterStructural) {
        // A number, true, false or null.
        tokens += 1;
        afterStructural = false;
      }
      // A field's value is small (ids, numbers, a header list): a long one is refused as soon as it is seen.
      if (limited && tokens - 1 > this.limits.maxFieldTokens) {
        const field = this.key ?? 'body';
        throw new SpoolFailure(new AppError('VALIDATION_FAILED', `${field} is too large`, { field }));
      }
      if (end >= 0) break;
      i += 1;
    }
    this.inString = inString;
    this.escaped = escaped;
    this.depth = depth;
    this.tokens = tokens;
    this.afterStructural = afterStructural;
    if (end < 0) {
      if (!(ended && this.kind === 'scalar')) return null;
      end = n;
    }
    const piece = buf.slice(this.from, end);
    const text = this.parts.length ? this.parts.join('') + piece : piece;
    this.parts = [];
    this.active = false;
    this.pos = end;
    return text;
  }

  /** A whole key or value was scanned: a key is kept for its value, a row goes to the file (tookRow), a field is kept. */
  private took(text: string): void {
    if (this.mode === 'firstRow' || this.mode === 'row') {
      this.tookRow(text);
      return;
    }
    const value = this.parse(text);
    if (this.mode === 'firstKey' || this.mode === 'key') {
      if (typeof value !== 'string') throw invalidJson();
      if (value.includes('\u0000')) throw nulIn('body');
      this.key = value;
      this.mode = 'colon';
      return;
    }
    if (text.includes('\\u0000') && holdsNul(value)) throw nulIn(this.key ?? 'body');
    this.fields[this.key!] = value;
    this.key = null;
    this.mode = 'afterValue';
  }

  /**
   * A row goes to the file as its text, parsed only when it may hold NUL: the start's first pass parses every row
   * anyway and answers a row that is not JSON with INVALID_JSON, and a parse here would be work the first pass
   * waits for (the spool ends before it begins).
   */
  private tookRow(text: string): void {
    // What the scanner takes for a row but is no value at all (`[1,]`, `[,1]`).
    if (text === '') throw invalidJson();
    if (text.includes('\\u0000') && holdsNul(this.parse(text))) throw nulIn(`rows[${this.rowCount}]`);
    this.rowCount += 1;
    if (this.rowCount > this.limits.maxRows) {
      throw new SpoolFailure(new AppError('PAYLOAD_TOO_LARGE', `A bulk send has at most ${this.limits.maxRows} rows.`, { field: 'rows' }));
    }
    // Raw newlines can only be whitespace between tokens: each row stays one line of the file.
    this.row(/[\n\r]/.test(text) ? text.replace(/[\n\r]/g, ' ') : text);
    this.mode = 'afterRow';
  }

  private parse(text: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      throw invalidJson();
    }
  }
}

const nulIn = (field: string) =>
  new SpoolFailure(new AppError('VALIDATION_FAILED', `${field} must not contain the NUL character (U+0000)`, { field }));

/** Streams `body` (JSON) into `file` (one row per line); resolves with the other fields and the row count. */
export function spoolRows(body: Readable, file: string, limits: SpoolLimits): Promise<Spooled> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file);
    let pending = '';
    let failed = false;
    const flush = () => {
      const more = out.write(pending);
      pending = '';
      if (!more && !body.isPaused()) {
        body.pause();
        out.once('drain', () => {
          if (!failed) body.resume();
        });
      }
    };
    const scanner = new BodyScanner(limits, (text) => {
      pending += text + '\n';
      if (pending.length >= WRITE_CHARS) flush();
    });

    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      body.removeAllListeners('data');
      body.resume();
      // Answered once the file is closed: the caller removes its folder, which a file opened later would keep.
      out.once('close', () => reject(error));
      out.destroy();
    };
    // The file could not be written (a server fault, not the body's); after a failure the folder may be gone already.
    out.on('error', (error) => fail(error));
    const attempt = (step: () => void) => {
      try {
        step();
      } catch (error) {
        if (error instanceof SpoolFailure) fail(error.appError);
        else fail(new AppError('VALIDATION_FAILED', `The body could not be read: ${(error as Error).message}`, { field: 'body' }));
      }
    };
    body.on('error', (error) => fail(new AppError('VALIDATION_FAILED', `The body could not be read: ${error.message}`, { field: 'body' })));
    let bytes = 0;
    body.on('data', (chunk: string) => {
      if (bytes === 0) traceStart('first body chunk');
      if (failed) return;
      bytes += Buffer.byteLength(chunk);
      if (bytes > limits.maxBytes) return fail(new AppError('PAYLOAD_TOO_LARGE', `The body is over ${limits.maxBytes} bytes.`, { field: 'body' }));
      attempt(() => scanner.feed(chunk));
    });
    body.on('end', () => {
      traceStart('body end');
      if (failed) return;
      attempt(() => scanner.finish());
      if (failed) return;
      if (pending) out.write(pending);
      out.end(() => resolve({ fields: scanner.fields, rowCount: scanner.rowCount }));
    });
    body.setEncoding('utf8');
  });
}
