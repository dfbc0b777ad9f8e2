/**
 * Multipart bodies read part by part, answered however they end. The multipart parser reports a body cut short
 * (no closing boundary) inconsistently: as a plain error on the file stream (a 500), or not at all when the body
 * had already arrived when the route began to read it (the request then waits for ever, holding its open file
 * and its scratch folder). So the body is watched here beside the parser: when the request's bytes end without
 * the closing boundary, or the client leaves first, every read in progress fails at once with a 400 naming the
 * body, the file being written is closed, and the route's `finally` deletes its scratch folder.
 */
import { createWriteStream } from 'node:fs';
import { PassThrough, type Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/** The message of the 400 for a body that ends before its closing boundary. */
export const CUT_SHORT_MESSAGE = 'The multipart body ends before its closing boundary: the upload was cut short; send it again whole.';

const cutShort = () => new AppError('VALIDATION_FAILED', CUT_SHORT_MESSAGE, { field: 'body' });

/** The multipart boundary of a content type (quoted or not), or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * Refuses a multipart content type without its boundary parameter (400 naming content-type): the multipart parser
 * would throw a plain error, a 500.
 */
export function requireMultipartBoundary(request: FastifyRequest): void {
  if (!multipartBoundary(request.headers['content-type'])) {
    throw new AppError('VALIDATION_FAILED', 'A multipart/form-data content type needs a boundary parameter.', { field: 'content-type' });
  }
}

/** Reads one request's multipart body. */
export interface MultipartReader {
  /** The parts as they arrive; fails with a 400 when the body ends or the client leaves before the closing boundary. */
  parts(): AsyncGenerator<Multipart>;
  /** Writes a file part (through `through`) to `path`; the file is closed however the body ends. */
  save(part: MultipartFile, path: string, ...through: Transform[]): Promise<void>;
  /** A file part's bytes for a route that reads them as they come; the stream fails with the 400 when the body is cut short. */
  stream(part: MultipartFile): Readable;
}

/** True when the error is the parser's own report of a body cut short. */
function isParserCutShort(error: unknown): boolean {
  return error instanceof Error && /terminated early|unexpected end of (multipart|form)/i.test(error.message);
}

/**
 * Watches `request`'s body for its closing boundary. Call before reading any part (the route has checked that the
 * content type is multipart with a boundary).
 */
export function readMultipart(request: FastifyRequest): MultipartReader {
  const raw = request.raw;
  const marker = Buffer.from(`\r\n--${multipartBoundary(request.headers['content-type']) ?? ''}--`);
  let seenClose = false;
  let tail = Buffer.alloc(0);
  let fail!: (error: AppError) => void;
  /** Rejects (with the 400) once the body is known to be cut short; never resolves. */
  const cut = new Promise<never>((_resolve, reject) => {
    fail = reject;
  });
  cut.catch(() => {});
  let cutError: AppError | undefined;
  const cutNow = () => {
    if (seenClose || cutError) return;
    cutError = cutShort();
    fail(cutError);
  };
  let watching = false;
  const watch = () => {
    if (watching) return;
    watching = true;
    // A listener beside the parser's pipe sees the same chunks and does not change the flow (the pipe still pauses the request).
    raw.on('data', (chunk: Buffer) => {
      if (seenClose) return;
      // The marker may straddle two chunks: look across the seam, then in the chunk itself.
      const seam = Buffer.concat([tail, chunk.subarray(0, marker.length - 1)]);
      if (seam.includes(marker) || chunk.includes(marker)) seenClose = true;
      else tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (marker.length - 1))));
    });
    raw.on('end', cutNow);
    raw.on('close', cutNow);
    if (raw.readableEnded || raw.destroyed) cutNow();
  };
  const mapped = (error: unknown) => (cutError || isParserCutShort(error) ? (cutError ?? cutShort()) : error);

  return {
    async *parts() {
      const iterator = request.parts()[Symbol.asyncIterator]();
      // The first step starts the parser, which pipes the request into itself; the watch begins right after.
      let next = iterator.next();
      watch();
      for (;;) {
        let step: IteratorResult<Multipart>;
        try {
          step = await Promise.race([next, cut]);
        } catch (error) {
          throw mapped(error);
        }
        if (step.done) break;
        yield step.value;
        next = iterator.next();
      }
      if (!seenClose) throw cutShort();
    },

    async save(part, path, ...through) {
      const sink = createWriteStream(path);
      const closed = new Promise<void>((resolve) => sink.once('close', () => resolve()));
      try {
        await Promise.race([pipeline([part.file, ...through, sink]), cut]);
      } catch (error) {
        part.file.destroy();
        sink.destroy();
        await closed;
        throw mapped(error);
      }
    },

    stream(part) {
      const out = new PassThrough();
      part.file.on('error', (error) => out.destroy(mapped(error) as Error));
      cut.catch((error: Error) => {
        part.file.destroy();
        out.destroy(error);
      });
      return part.file.pipe(out);
    },
  };
}
