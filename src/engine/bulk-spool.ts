/**
 * Reads a bulk-start body as a stream: the top-level fields are kept, the `rows` array goes row by row to
 * a temporary JSON-lines file. Memory stays flat whatever the row count (the interface lists `rows` before
 * `channel_id` and `param_headers`, so rows can only be checked once the whole body has been read).
 */
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import Assembler from 'stream-json/assembler.js';
import parser from 'stream-json/parser.js';
import { MAX_JSON_DEPTH, TOO_DEEP_MESSAGE } from '../domain/json-depth.js';
import { AppError } from '../errors.js';

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

type Token = { name: string; value?: unknown };

const tooDeep = () => new AppError('VALIDATION_FAILED', TOO_DEEP_MESSAGE, { field: 'body' });

/** Streams `body` (JSON) into `file` (one row per line); resolves with the other fields and the row count. */
export function spoolRows(body: Readable, file: string, limits: SpoolLimits): Promise<Spooled> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file);
    const tokens = parser.asStream({ packValues: true, streamValues: false });
    // No prototype: a "__proto__" key is then an own (unknown) field, as JSON.parse makes it, not the object's prototype.
    const fields: Record<string, unknown> = Object.create(null);
    let depth = 0;
    let key: string | null = null;
    let inRows = false;
    let rowCount = 0;
    let asm: Assembler | null = null;
    let asmDepth = 0;
    let fieldTokens = 0;
    let failed = false;
    // Nesting of the whole body: a row nested thousands deep would overflow the stack of every recursive walk after it.
    let nesting = 0;

    const fail = (error: AppError) => {
      if (failed) return;
      failed = true;
      body.unpipe(tokens);
      body.resume();
      tokens.destroy();
      out.destroy();
      reject(error);
    };

    const finishValue = (value: unknown) => {
      if (inRows) {
        rowCount += 1;
        if (rowCount > limits.maxRows) {
          return fail(new AppError('PAYLOAD_TOO_LARGE', `A bulk send has at most ${limits.maxRows} rows.`, { field: 'rows' }));
        }
        if (!out.write(JSON.stringify(value) + '\n')) {
          tokens.pause();
          out.once('drain', () => tokens.resume());
        }
      } else if (key !== null) {
        fields[key] = value;
        key = null;
      }
    };

    /** A value begins: a scalar is complete at once; an object or array is assembled over the next tokens. */
    const startValue = (token: Token) => {
      if (token.name === 'startObject' || token.name === 'startArray') {
        asm = new Assembler();
        asm.consume(token as never);
        asmDepth = 1;
        return;
      }
      finishValue(new Assembler().consume(token as never).current);
    };

    tokens.on('data', (token: Token) => {
      if (failed) return;
      if (token.name === 'startObject' || token.name === 'startArray') {
        if (++nesting > MAX_JSON_DEPTH) return fail(tooDeep());
      } else if (token.name === 'endObject' || token.name === 'endArray') {
        nesting -= 1;
      }
      // PostgreSQL text and jsonb cannot store NUL; the other routes refuse it before their handler (http/input-rules).
      if ((token.name === 'stringValue' || token.name === 'keyValue') && String(token.value).includes('\u0000')) {
        const field = inRows ? `rows[${rowCount}]` : key ?? 'body';
        return fail(new AppError('VALIDATION_FAILED', `${field} must not contain the NUL character (U+0000)`, { field }));
      }
      if (asm) {
        if (!inRows && ++fieldTokens > limits.maxFieldTokens) {
          return fail(new AppError('VALIDATION_FAILED', `${key} is too large`, { field: key ?? 'body' }));
        }
        asm.consume(token as never);
        if (token.name === 'startObject' || token.name === 'startArray') asmDepth += 1;
        if (token.name === 'endObject' || token.name === 'endArray') asmDepth -= 1;
        if (asmDepth === 0) {
          const value = asm.current;
          asm = null;
          finishValue(value);
        }
        return;
      }
      if (depth === 0) {
        if (token.name !== 'startObject') return fail(new AppError('VALIDATION_FAILED', 'The body must be a JSON object.', { field: 'body' }));
        depth = 1;
        return;
      }
      if (inRows) {
        if (token.name === 'endArray') {
          inRows = false;
          return;
        }
        return startValue(token);
      }
      // depth 1: inside the root object
      if (token.name === 'keyValue') {
        key = String(token.value);
        fieldTokens = 0;
        return;
      }
      if (token.name === 'endObject') {
        depth = 0;
        return;
      }
      if (key === 'rows' && token.name === 'startArray') {
        inRows = true;
        key = null;
        fields.rows = true;
        return;
      }
      startValue(token);
    });
    tokens.on('error', () => fail(new AppError('INVALID_JSON', undefined, { field: 'body' })));
    body.on('error', (error) => fail(new AppError('VALIDATION_FAILED', `The body could not be read: ${error.message}`, { field: 'body' })));
    let bytes = 0;
    body.on('data', (chunk: string) => {
      bytes += Buffer.byteLength(chunk);
      if (bytes > limits.maxBytes) fail(new AppError('PAYLOAD_TOO_LARGE', `The body is over ${limits.maxBytes} bytes.`, { field: 'body' }));
    });
    tokens.on('end', () => {
      if (failed) return;
      out.end(() => resolve({ fields, rowCount }));
    });
    body.setEncoding('utf8');
    body.pipe(tokens);
  });
}
