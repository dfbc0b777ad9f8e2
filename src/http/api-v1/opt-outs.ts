/**
 * Opt-outs (beyond the interface; family B envelope): the company's suppression list — list
 * (paged, search by number), add, remove, CSV import (text/csv body or multipart `file` part, streamed) — and its
 * opt-out keywords. A number on the list is never sent to: bulk rows end OPT_IN_FAILED (RECIPIENT_OPTED_OUT), a
 * single send answers 422 RECIPIENT_OPTED_OUT.
 */
import { Transform, type Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { AppError } from '../../errors.js';
import { addOptOut, getOptOutKeywords, importOptOuts, listOptOutPage, recipientOfPath, removeOptOut, setOptOutKeywords } from '../../engine/opt-outs.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, apiV1Body, apiV1Schema } from '../envelope.js';
import { readMultipart, requireMultipartBoundary } from '../multipart-body.js';
import {
  OptOutAddBody,
  OptOutAddData,
  OptOutImportData,
  OptOutItem,
  OptOutKeywordsBody,
  OptOutKeywordsData,
  OptOutListQuery,
  OptOutPagination,
  OptOutParams,
  toOptOutItem,
} from '../schemas/opt-out.js';

/** A CSV import body is at most 16 MB. */
export const IMPORT_MAX_BYTES = 16 * 1024 * 1024;

const TAGS = ['opt-outs'];
const ENVELOPE = { success: true, message: '', status_code: 200, trace_id: '0b5c7e0e-8a7f-4a3e-9d51-4c1f0f2b9a10', errors: [] };
const ENTRY = (OptOutItem as unknown as { examples: unknown[] }).examples[0];

/** A schema with one example. */
function withExample<T extends TSchema>(schema: T, example: unknown): T {
  return { ...schema, examples: [example] };
}

/** The file stream of an import request, cut at IMPORT_MAX_BYTES (413). */
async function importStream(request: FastifyRequest): Promise<Readable> {
  let source: Readable;
  if (request.isMultipart()) {
    requireMultipartBoundary(request);
    // The first part must be the file: it is streamed to the importer as it arrives (nothing else is read).
    const body = readMultipart(request);
    const first = await body.parts().next();
    if (first.done) throw new AppError('VALIDATION_FAILED', 'file is required: a multipart part named "file" holding the CSV.', { field: 'file' });
    const part = first.value;
    if (part.type !== 'file' || part.fieldname !== 'file') {
      if (part.type === 'file') part.file.resume();
      throw new AppError('VALIDATION_FAILED', `${part.fieldname} is not a known field; the CSV goes in a single part named "file".`, { field: part.fieldname });
    }
    source = body.stream(part);
  } else if (request.body && typeof (request.body as Readable).pipe === 'function') {
    source = request.body as Readable;
  } else {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the CSV as a text/csv body, or as multipart/form-data with a "file" part.', { field: 'content-type' });
  }
  if (Number(request.headers['content-length'] ?? 0) > IMPORT_MAX_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `An import body is at most ${IMPORT_MAX_BYTES} bytes.`, { field: 'file' });
  }
  let bytes = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > IMPORT_MAX_BYTES) done(new AppError('PAYLOAD_TOO_LARGE', `An import body is at most ${IMPORT_MAX_BYTES} bytes.`, { field: 'file' }));
      else done(null, chunk);
    },
  });
  source.on('error', (error) => cap.destroy(error));
  return source.pipe(cap);
}

/** The opt-out routes. */
export const apiV1OptOutRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024 } });
  // text/csv bodies are streamed to the importer (this plugin's routes only).
  app.addContentTypeParser(['text/csv', 'application/csv'], (_request, payload, done) => done(null, payload));

  app.get(
    '/opt-outs',
    {
      schema: {
        tags: TAGS,
        summary: "The company's opt-out list (suppression list), newest first",
        description:
          'An addition. Paged with page (from 1) and page_size (1-500, default 20); phone_number keeps the numbers that contain its digits. ' +
          'Numbers on the list are never sent to: a bulk-send row ends OPT_IN_FAILED with error_message "Recipient opted out" and an error_message_detail that starts RECIPIENT_OPTED_OUT; a single send answers 422 RECIPIENT_OPTED_OUT.',
        querystring: OptOutListQuery,
        response: {
          200: withExample(apiV1Schema({ items: Type.Array(OptOutItem), pagination: OptOutPagination }), {
            ...ENVELOPE,
            items: [ENTRY],
            pagination: { page: 1, page_size: 20, total: 1 },
          }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const page = Number(request.query.page ?? 1);
      const pageSize = Number(request.query.page_size ?? 20);
      if (pageSize > 500) throw new AppError('VALIDATION_FAILED', 'page_size is at most 500', { field: 'page_size' });
      const { items, total } = await listOptOutPage(deps.db, request.companyId, { page, page_size: pageSize, search: request.query.phone_number, user_id: request.query.user_id });
      return apiV1Body(request, { items: items.map(toOptOutItem), pagination: { page, page_size: pageSize, total } });
    },
  );

  app.post(
    '/opt-outs',
    {
      schema: {
        tags: TAGS,
        summary: 'Add a number or a BSUID to the opt-out list',
        description:
          'An addition. phone_number and/or user_id (a BSUID, e.g. US.13491208655302741918; at least one): the number is normalised to E.164 (a leading 00 or + and spaces, dots, dashes, parentheses are accepted), ' +
          'the BSUID kept as written, and the entry stored with source "api". A malformed one is 400 naming its field, nothing written. ' +
          'Adding a number or BSUID already on the list changes nothing and answers its first entry with created false. ' +
          'A number and a BSUID the network showed to be one person (a webhook carrying both) are refused together whichever is listed.',
        body: OptOutAddBody,
        response: {
          200: withExample(apiV1Schema({ data: OptOutAddData }), {
            ...ENVELOPE,
            data: { opt_out: { ...(ENTRY as object), source: 'api', keyword: null, reason: 'asked by phone', channel_id: null }, created: true },
          }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { optOut, created } = await addOptOut(deps.db, request.companyId, request.body);
      return apiV1Body(request, { data: { opt_out: toOptOutItem(optOut), created } });
    },
  );

  app.get(
    '/opt-outs/keywords',
    {
      schema: {
        tags: TAGS,
        summary: "The company's opt-out keywords",
        description:
          'An addition. An inbound WhatsApp reply (text, quick-reply button or reply-button title) that equals one of these, ignoring case, ' +
          'leading and trailing spaces and repeated inner spaces, adds its sender to the list of the company owning the channel it came in on. ' +
          'Default: STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, OPTOUT, OPT OUT.',
        response: {
          200: withExample(apiV1Schema({ data: OptOutKeywordsData }), { ...ENVELOPE, data: (OptOutKeywordsData as unknown as { examples: unknown[] }).examples[0] }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => apiV1Body(request, { data: await getOptOutKeywords(deps.db, request.companyId) }),
  );

  app.put(
    '/opt-outs/keywords',
    {
      schema: {
        tags: TAGS,
        summary: "Replace the company's opt-out keywords",
        description:
          'An addition. Keywords are stored trimmed, upper case, inner spaces collapsed; at most 50, each at most 64 characters; ' +
          'two that are equal that way are refused (400, field keywords[i]). An empty list turns keyword opt-outs off. Numbers already on the list stay.',
        body: OptOutKeywordsBody,
        response: {
          200: withExample(apiV1Schema({ data: OptOutKeywordsData }), { ...ENVELOPE, data: { keywords: ['STOP', 'UNSUBSCRIBE', 'IPTAL', 'DUR'], is_default: false } }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => apiV1Body(request, { data: await setOptOutKeywords(deps.db, request.companyId, request.body.keywords) }),
  );

  app.post(
    '/opt-outs/import',
    {
      bodyLimit: IMPORT_MAX_BYTES,
      schema: {
        tags: TAGS,
        summary: 'Import numbers to the opt-out list from a CSV file',
        description:
          'An addition. The CSV (UTF-8, at most 16 MB and 100,000 lines) comes as a text/csv body or as the "file" part of multipart/form-data. ' +
          'Its first line is a header naming a phone_number and/or a user_id (BSUID) column and optionally a reason column (other columns are ignored); comma, semicolon or tab separated, as the header shows. ' +
          'Lines with a bad number, BSUID or reason are reported with their line number (1 = the header) and skipped; every good line is stored with source "import" ' +
          '(numbers already listed keep their entry). A file that is not valid CSV (an unclosed quote, a line over 4 KB) or lacks the header is refused as a whole (400): nothing is written.',
        consumes: ['text/csv', 'multipart/form-data'],
        body: {
          content: {
            'text/csv': { schema: Type.String({ description: 'The CSV file', examples: ['phone_number,reason\n905551234567,asked by phone\n+44 7700 900123,\n'] }) },
            'multipart/form-data': {
              schema: Type.Object({ file: Type.String({ format: 'binary', description: 'The CSV file' }) }, { additionalProperties: false }),
            },
          },
        } as unknown as TSchema,
        response: {
          200: withExample(apiV1Schema({ data: OptOutImportData }), { ...ENVELOPE, data: (OptOutImportData as unknown as { examples: unknown[] }).examples[0] }),
          ...ERROR_RESPONSES,
        },
      },
      // The stream is read and checked by the importer itself.
      validatorCompiler: () => () => true,
    },
    async (request) => {
      const report = await importOptOuts(deps.db, request.companyId, await importStream(request));
      return apiV1Body(request, { data: report });
    },
  );

  app.delete(
    '/opt-outs/:phone_number',
    {
      schema: {
        tags: TAGS,
        summary: 'Remove a number or a BSUID from the opt-out list',
        description:
          'An addition. A phone number (with or without its leading +, URL-encoded as %2B) or a BSUID (starts with its country code, e.g. US.13491208655302741918). ' +
          'The entries of that number or BSUID and of the identifiers the network linked to it are removed. 404 NOT_FOUND when the company has none. ' +
          'Sends queued after this reach the recipient again.',
        params: OptOutParams,
        response: { 200: withExample(apiV1Schema({}), ENVELOPE), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      await removeOptOut(deps.db, request.companyId, recipientOfPath(request.params.phone_number));
      return apiV1Body(request, {});
    },
  );
};
