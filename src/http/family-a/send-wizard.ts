/**
 * Family A bulk sends: start and startv2 (bodies up to 256 MB read as a stream, rows spooled to a
 * temporary file, so memory stays flat), stop, reports, reports/detail.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { bulkSendReport, listBulkSends, stopBulkSend, toListItem } from '../../engine/bulk-sends.js';
import { spoolRows } from '../../engine/bulk-spool.js';
import { startBulkSend } from '../../engine/bulk-start.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES } from '../envelope.js';
import { claimIdempotency, hashedBody, idempotencyFence, idempotentStreamRoute } from '../idempotency.js';
import {
  ListItem,
  Pagination,
  ReportDetailBody,
  ReportDetailItem,
  ReportsBody,
  StartResponse,
  StartV1Body,
  StartV2Body,
  StopBody,
  StopResponse,
  toReportItem,
} from '../schemas/send-wizard.js';

/** Bodies of a start are at most 256 MB, with at most 1,000,000 rows. */
export const START_LIMITS = { maxBytes: 256 * 1024 * 1024, maxRows: 1_000_000, maxFieldTokens: 10_000 };

/** The bulk-send routes. */
export const familyASendWizardRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  // Starts: the JSON body is handed over as a stream (this scope only) and checked by the service.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', (_request, payload, done) => done(null, payload));
    for (const [path, variant, body] of [
      ['/send-wizard/start', 'v1', StartV1Body],
      ['/send-wizard/startv2', 'v2', StartV2Body],
    ] as const) {
      scope.post(
        path,
        {
          schema: {
            tags: ['family A'],
            summary: variant === 'v1' ? 'Start a bulk send (rows as objects)' : 'Start a bulk send (rows as arrays, columns named by param_headers; carousel capable)',
            description: 'The body is read as a stream (up to 256 MB, 1,000,000 rows); every row is checked before anything is stored.',
            body,
            response: { 200: StartResponse, ...ERROR_RESPONSES },
          },
          // The stream is checked by the service itself, row by row, with the same rules as the schema above.
          validatorCompiler: () => () => true,
          ...idempotentStreamRoute(deps.db),
        },
        async (request, reply) => {
          const declared = Number(request.headers['content-length'] ?? 0);
          if (declared > START_LIMITS.maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `The body is over ${START_LIMITS.maxBytes} bytes.`, { field: 'body' });
          const dir = await mkdtemp(join(tmpdir(), 'tms-start-'));
          try {
            const file = join(dir, 'rows.jsonl');
            // With an Idempotency-Key the raw bytes are hashed as they stream to the spool; the key is claimed once read.
            const spooled = await spoolRows(hashedBody(request, request.body as unknown as Readable), file, START_LIMITS);
            if (await claimIdempotency(deps.db, request, reply, { leaseSeconds: 900 })) return reply;
            const fence = idempotencyFence(request, reply);
            const started = await startBulkSend(deps.bulk, request.companyId, variant, spooled, file, fence && ((tx, s) =>
              fence(tx, { success: true, data: { send_wizard_id: s.id, summary: s.summary, duplicate_count: s.duplicates } })));
            deps.bulk.started();
            return { success: true as const, data: { send_wizard_id: started.id, summary: started.summary, duplicate_count: started.duplicates } };
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        },
      );
    }
  });

  app.post(
    '/send-wizard/stop',
    {
      schema: {
        tags: ['family A'],
        summary: 'Stop a bulk send: rows not yet handed to the network become CANCELLED at once',
        body: StopBody,
        response: { 200: StopResponse, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const data = await stopBulkSend(deps.db, request.companyId, request.body.channel_id, request.body.send_wizard_id);
      return { success: true as const, data };
    },
  );

  app.post(
    '/send-wizard/reports',
    {
      schema: {
        tags: ['family A'],
        summary: "The channel's bulk sends with their counters, newest first",
        body: ReportsBody,
        response: { 200: Type.Object({ success: Type.Literal(true), items: Type.Array(ListItem), pagination: Pagination }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const page = request.body.page ?? 1;
      const pageSize = request.body.page_size ?? 20;
      const { rows, total } = await listBulkSends(deps.db, request.companyId, request.body.channel_id, page, pageSize);
      return { success: true as const, items: rows.map(toListItem) as never, pagination: { page, page_size: pageSize, total } };
    },
  );

  app.post(
    '/send-wizard/reports/detail',
    {
      schema: {
        tags: ['family A'],
        summary: "One bulk send's rows with their status, times and errors, in row order",
        body: ReportDetailBody,
        response: {
          200: Type.Object({ success: Type.Literal(true), data: Type.Object({ report_details: Type.Array(ReportDetailItem) }), pagination: Pagination }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const page = request.body.data?.page ?? 1;
      const pageSize = request.body.data?.page_size ?? 20;
      const { rows, total } = await bulkSendReport(deps.db, request.companyId, request.body.id, page, pageSize);
      return { success: true as const, data: { report_details: rows.map(toReportItem) as never }, pagination: { page, page_size: pageSize, total } };
    },
  );
};
