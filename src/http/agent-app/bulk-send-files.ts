/**
 * Files in and out of bulk sends (beyond the interface): `POST /send-wizard/start-file` starts a bulk send from
 * an uploaded CSV or XLSX (multipart; the file part is streamed to a temporary file, so fields and file may come
 * in any order, then read as a stream), and `GET /send-wizard/reports/detail/export` streams a report detail
 * as CSV or XLSX.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MESSAGE_STATUSES } from '../../domain/message-states.js';
import { AppError } from '../../errors.js';
import { scratchDir } from '../../engine/scratch.js';
import { startBulkSendFromFile, type StagedSheet } from '../../engine/bulk-file.js';
import { EXPORT_FORMATS, exportReport } from '../../engine/report-export.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES } from '../envelope.js';
import { canonicalJson, claimIdempotency, idempotencyFence, idempotentStreamRoute } from '../idempotency.js';
import { refuseNul } from '../input-rules.js';
import { readMultipart, requireMultipartBoundary } from '../multipart-body.js';
import { StartOrDryRunResponse, startAnswer, startedData } from '../schemas/bulk-send.js';
import { START_LIMITS } from './bulk-sends.js';

const HEAD_BYTES = 64 * 1024;
const EXAMPLE_ID = '6650f0c2a1b2c3d4e5f60718';

/** The export's query. */
const ExportQuery = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, description: 'the send_wizard_id' }),
    format: Type.Optional(Type.Union(EXPORT_FORMATS.map((f) => Type.Literal(f)), { default: 'csv', description: 'csv (UTF-8, comma, header row) or xlsx' })),
    status: Type.Optional(Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s)), { description: 'only rows in this message status' })),
  },
  { additionalProperties: false, examples: [{ id: EXAMPLE_ID, format: 'xlsx', status: 'BACKEND_FAILED' }] },
);

const CSV_EXAMPLE =
  'row,row_id,phone_number,user_id,parent_user_id,username,full_name,status,backend_sended_time,sended_time,delivered_time,seen_time,failed_time,error_message,error_message_detail,message_id,send_name,market,pricing_category,pricing_type,billed,list_price\n' +
  '1,1,+5491155550103,AR.1349120865530274191,,,Ana,BACKEND_SEEN,2026-11-23T10:00:00.120Z,2026-11-23T10:00:00.410Z,2026-11-23T10:00:01.020Z,2026-11-23T10:00:05.300Z,,,,6650f0c2a1b2c3d4e5f60801,Spring sale,AR,marketing,regular,true,0.0618\n';

/** The file routes of bulk sends. */
export const agentAppBulkSendFileRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: START_LIMITS.maxBytes, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
    });
    scope.post(
      '/send-wizard/start-file',
      {
        bodyLimit: START_LIMITS.maxBytes + 1024 * 1024,
        schema: {
          tags: ['/agent-app/message-template'],
          summary: 'Start a bulk send from a CSV or XLSX file (multipart; addition)',
          description:
            'multipart/form-data: a `file` part (CSV in UTF-8 with a header row, comma, semicolon or tab separated; or XLSX, first worksheet; ' +
            'up to 256 MB and 1,000,000 rows) and the fields `message_template_id`, `channel_id`, `total_time`, optional `mapping` ' +
            '(a JSON object: column header -> target; targets `phone_number`, `full_name`, `id`, and the startv2 columns such as `BODY.1`, ' +
            '`HEADER.1`, `BUTTONS.0`, `CAROUSEL.0.BODY.1` or start field names `url_button_param`, `url_button_param2`, `text_header_param`, ' +
            '`copy_code_param`; without it, headers that already name a target are used, a header named like a template value the template does not take ' +
            '(`BODY.2`, `url_button_param`) is refused as MAPPING_INVALID on `mapping.<header>`, other headers are ignored) and optional `dry_run` (true/false), `scheduled_at` (addition: ISO 8601 with an offset; see the JSON starts), `send_name` (the bulk send\'s own name, as on the JSON starts) `message_send_ttl_seconds` and `skip_invalid_rows` (true/false; as on the JSON starts). Fields and file ' +
            'may come in any order. Rows are checked exactly as startv2 rows; errors name `rows[<sheet row>].<column header>` (the header ' +
            'is row 1). Nothing is stored when any row is bad (unless skip_invalid_rows). Codes: FILE_TYPE_UNSUPPORTED (415), FILE_INVALID, MAPPING_INVALID (400), ' +
            'PAYLOAD_TOO_LARGE (413).',
          consumes: ['multipart/form-data'],
          response: { 200: StartOrDryRunResponse, ...ERROR_RESPONSES },
        },
        ...idempotentStreamRoute(deps.db),
      },
      async (request, reply) => {
        if (!request.isMultipart()) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send multipart/form-data with the fields and a file part.', { field: 'body' });
        }
        requireMultipartBoundary(request);
        const dir = await scratchDir('tms-file-start-');
        try {
          const fields: Record<string, string> = Object.create(null);
          let staged: (StagedSheet & { sha256: string; truncated: boolean }) | undefined;
          const body = readMultipart(request);
          for await (const part of body.parts()) {
            if (part.type === 'field') {
              if (part.fieldname in fields) throw new AppError('VALIDATION_FAILED', `${part.fieldname} is given twice`, { field: part.fieldname });
              fields[part.fieldname] = String(part.value);
              continue;
            }
            if (part.fieldname !== 'file' || staged) {
              part.file.resume();
              throw new AppError('VALIDATION_FAILED', 'Exactly one file part named "file" is expected.', { field: part.fieldname });
            }
            const path = join(dir, 'upload');
            let head = Buffer.alloc(0);
            const hash = createHash('sha256');
            const tap = new Transform({
              transform(chunk: Buffer, _encoding, done) {
                if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
                hash.update(chunk);
                done(null, chunk);
              },
            });
            await body.save(part, path, tap);
            staged = { path, fileName: part.filename || '', head, sha256: hash.digest('hex'), truncated: part.file.truncated };
          }
          refuseNul(fields);
          if (!staged) throw new AppError('VALIDATION_FAILED', 'file is required', { field: 'file' });
          if (staged.truncated) throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${START_LIMITS.maxBytes} bytes.`, { field: 'file' });
          const dryRun = ['true', '1'].includes((fields.dry_run ?? '').trim().toLowerCase());
          // Idempotency-Key: the request is the fields and the file's bytes (not the multipart framing, whose boundary changes).
          request.idempotency?.hash.update(canonicalJson({ fields: { ...fields }, file_sha256: staged.sha256 }));
          if (!dryRun && (await claimIdempotency(deps.db, request, reply, { leaseSeconds: 900, instance: deps.instance }))) return reply;
          // Crash tests only: the process dies holding the key, mid-start.
          if (!dryRun && deps.config.faultCrashInFileStart) process.kill(process.pid, 'SIGKILL');
          const fence = dryRun ? undefined : idempotencyFence(request, reply);
          const started = await startBulkSendFromFile(deps.bulk, request.companyId, fields, staged, join(dir, 'rows.jsonl'), START_LIMITS, fence && ((tx, s) =>
            fence(tx, { success: true, data: startedData(s) })));
          if (!started.dryRun) deps.bulk.started();
          return startAnswer(started);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    );
  });

  app.get(
    '/send-wizard/reports/detail/export',
    {
      schema: {
        tags: ['/agent-app/message-template'],
        summary: "Download a bulk send's report detail as CSV or XLSX (streamed; addition)",
        description:
          'Every row of the bulk send in row order (optionally only one message status), streamed in keyset batches: columns row, row_id, ' +
          'phone_number, full_name, status, backend_sended_time, sended_time, delivered_time, seen_time, failed_time (ISO 8601 UTC), ' +
          'error_message, error_message_detail, message_id, send_name (the bulk send\'s own name, on every row), then what the row cost: market (the ' +
          "recipient's country), pricing_category and pricing_type (the network's pricing), billed (billable and delivered or read) and list_price (the " +
          "rate card's figure for a billed row; empty when unknown); list_price summed is the estimated cost at Meta's list price, not an invoice. " +
          'Empty cells for unset fields. Sent as an attachment ' +
          '(report-<id>[-<status>].csv|xlsx). Another company\'s id is 404 like a missing one.',
        querystring: ExportQuery,
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: {
          200: {
            description: 'the file',
            content: {
              'text/csv': { schema: Type.String({ description: 'CSV, UTF-8, header row first', examples: [CSV_EXAMPLE] }) },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
                schema: Type.String({ format: 'binary', description: 'an XLSX workbook with one worksheet "report", header row first', examples: ['(XLSX bytes)'] }),
              },
            },
          },
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const { id, format = 'csv', status } = request.query;
      const file = await exportReport(deps.db, request.log, request.companyId, id, format, status);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );
};
