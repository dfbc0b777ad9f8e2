/**
 * Family A bulk sends: start and startv2 (bodies up to 256 MB read as a stream, rows spooled to a
 * temporary file, so memory stays flat), stop, reports, reports/detail.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors.js';
import { scratchDir } from '../../engine/scratch.js';
import { MAX_START_BYTES, MAX_START_ROWS } from '../../domain/bulk-limits.js';
import { allowedActions } from '../../domain/bulk-send-states.js';
import { bulkSendReport, bulkSendSkippedRows, listBulkSends, stopBulkSend, toListItem } from '../../engine/bulk-sends.js';
import { spoolRows } from '../../engine/bulk-spool.js';
import { costsOfBulkSends } from '../../engine/pricing.js';
import { startBulkSend } from '../../engine/bulk-start.js';
import { tracingStarts, traceStart } from '../../engine/start-trace.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES } from '../envelope.js';
import { claimIdempotency, hashedBody, idempotencyFence, idempotentStreamRoute } from '../idempotency.js';
import { documented, IDEMPOTENCY_HEADER_DOC } from '../openapi/doc-only.js';
import {
  ReportDetailBody,
  ReportDetailResponse,
  ReportsBody,
  ReportsResponse,
  StartOrDryRunResponse,
  StartV1Body,
  StartV2Body,
  StopBody,
  StopResponse,
  SkippedRowsBody,
  SkippedRowsResponse,
  startAnswer,
  startedData,
  toSkippedItem,
  toReportItem,
} from '../schemas/bulk-send.js';

/** Bodies of a start are at most MAX_START_BYTES, with at most MAX_START_ROWS rows (domain/bulk-limits.ts). */
export const START_LIMITS = { maxBytes: MAX_START_BYTES, maxRows: MAX_START_ROWS, maxFieldTokens: 10_000 };

/** The bulk-send routes. */
export const agentAppBulkSendRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  // Starts: the JSON body is handed over as a stream (this scope only) and checked by the service.
  await app.register(async (scope) => {
    if (tracingStarts()) {
      scope.addHook('onRequest', async () => traceStart('request'));
      scope.addHook('onResponse', async () => traceStart('answer sent'));
    }
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
            tags: ['/agent-app/message-template'],
            summary: variant === 'v1' ? 'Start a bulk send (rows as objects)' : 'Start a bulk send (rows as arrays, columns named by param_headers; carousel capable)',
            description:
              (variant === 'v1'
                ? 'Rows as objects: params fills the BODY variables in order (a NAMED template: in order of first appearance of each name), ' +
                  'text_header_param the header (text, or a media link/id), url_button_param/url_button_param2 the URL buttons, copy_code_param the coupon. '
                : 'Rows as arrays: the row number, the phone, then one cell per param_headers column from the third on ' +
                  '(BODY.<n>, HEADER.<n>, HEADER, BUTTONS.<i>, CAROUSEL.<card>.BODY.<n>, CAROUSEL.<card>.BUTTONS.<i>, CAROUSEL.<card>.HEADER, FULL_NAME; ' +
                  'BODY.<name> for a NAMED template). ') +
              'Formats with complete examples: docs/send-parameters.md. ' +
              'The body is read as a stream (up to 256 MB, 1,000,000 rows); every row is checked before anything is stored, a bad one is 400 naming rows[i]. ' +
              'A value the template does not take (a params entry past its BODY variables, a url_button_param it has no URL button for, a column it has no part for) ' +
              'is refused like a missing one, naming it (rows[i].params[k], rows[i].url_button_param, param_headers[k]); it is never dropped. ' +
              'Repeated numbers are sent once (duplicate_count). Optional Idempotency-Key header. ' +
              'Addition: `dry_run: true` checks exactly as a start and stores nothing; it answers the row count, duplicates removed and the tier quota needed and left; ' +
              '`send_name` names the bulk send in lists and reports.',
            body,
            response: { 200: StartOrDryRunResponse, ...ERROR_RESPONSES },
          },
          // The body is a stream: the service checks it against this very schema, the fields once read and each row
          // as it is read (http/schemas/bulk-start-check.ts, compiled from `body`).
          validatorCompiler: () => () => true,
          ...idempotentStreamRoute(deps.db),
          config: documented({ headers: IDEMPOTENCY_HEADER_DOC }),
        },
        async (request, reply) => {
          const declared = Number(request.headers['content-length'] ?? 0);
          if (declared > START_LIMITS.maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `The body is over ${START_LIMITS.maxBytes} bytes.`, { field: 'body' });
          const dir = await scratchDir('tms-start-');
          try {
            const file = join(dir, 'rows.jsonl');
            // With an Idempotency-Key the raw bytes are hashed as they stream to the spool; the key is claimed once read.
            const spooled = await spoolRows(hashedBody(request, request.body as unknown as Readable), file, START_LIMITS);
            traceStart('spooled');
            // A dry run stores nothing, not even its Idempotency-Key.
            const dryRun = spooled.fields.dry_run === true;
            if (!dryRun && (await claimIdempotency(deps.db, request, reply, { leaseSeconds: 900, instance: deps.instance }))) return reply;
            traceStart('key claimed');
            const fence = dryRun ? undefined : idempotencyFence(request, reply);
            const started = await startBulkSend(deps.bulk, request.companyId, variant, spooled, file, fence && ((tx, s) =>
              fence(tx, { success: true, data: startedData(s) })));
            traceStart('start returned');
            if (!started.dryRun) deps.bulk.started();
            traceStart('dispatcher woken');
            return startAnswer(started);
          } finally {
            // Removed while the answer goes out: nothing of the folder is read once the start has returned, and a
            // folder a crash leaves behind is removed when the service starts again (engine/scratch.ts).
            void rm(dir, { recursive: true, force: true }).catch((error: unknown) => request.log.warn({ err: error, dir }, 'a start\'s scratch folder was not removed'));
          }
        },
      );
    }
  });

  app.post(
    '/send-wizard/stop',
    {
      schema: {
        tags: ['/agent-app/message-template'],
        summary: 'Stop a bulk send: it is STOPPED at once and its rows not yet handed to the network become CANCELLED',
        description: 'The answer comes at once whatever the size: from then on no row of the bulk send is handed to the network. Rows not yet handed over are cancelled in batches of 1,000, the first before the answer (`cancelled_count`), the rest right after (`cancelling_count` here and in the reports list, 0 once done; counters exact at the end). Rows already handed to the network keep their status and counters; stopping a finished bulk send is 409 BULK_SEND_FINISHED.',
        body: StopBody,
        response: { 200: StopResponse, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const data = await stopBulkSend(deps.db, request.companyId, request.body.channel_id, request.body.send_wizard_id, deps.bulk.started);
      return { success: true as const, data };
    },
  );

  app.post(
    '/send-wizard/reports',
    {
      schema: {
        tags: ['/agent-app/message-template'],
        summary: "The channel's bulk sends with their counters, newest first",
        description:
          'Paged (page from 1, page_size up to 500, default 20). Counters follow the status events as they arrive. ' +
          "Addition: `cost`, the billable messages by pricing category and market and their estimated cost at Meta's list price " +
          '(the company\'s rate card, GET /api/v1/rate-card); an estimate, not an invoice.',
        body: ReportsBody,
        response: { 200: ReportsResponse, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const page = request.body.page ?? 1;
      const pageSize = request.body.page_size ?? 20;
      const { rows, total } = await listBulkSends(deps.db, request.companyId, request.body.channel_id, page, pageSize);
      const costs = await costsOfBulkSends(deps.db, request.companyId, rows.map((r) => r.id));
      const items = rows.map((r) => ({ ...toListItem(r), cost: costs.get(r.id) }));
      return { success: true as const, items: items as never, pagination: { page, page_size: pageSize, total } };
    },
  );

  app.post(
    '/send-wizard/reports/skipped',
    {
      schema: {
        tags: ['family A'],
        summary: 'The rows a bulk start left out as invalid (skip_invalid_rows; beyond the interface)',
        description:
          'In the order of the request, each with its row number as the client knows it, its phone as given and its problems; ' +
          'paged by data.page / data.page_size (up to 500); pagination.total is the list item\'s skipped_count. Another company\'s id is 404 like a missing one.',
        body: SkippedRowsBody,
        response: { 200: SkippedRowsResponse, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const page = request.body.data?.page ?? 1;
      const pageSize = request.body.data?.page_size ?? 20;
      const { bulkSend, rows } = await bulkSendSkippedRows(deps.db, request.companyId, request.body.id, page, pageSize);
      return { success: true as const, data: { skipped_rows: rows.map(toSkippedItem) }, pagination: { page, page_size: pageSize, total: bulkSend.skipped_count } };
    },
  );

  app.post(
    '/send-wizard/reports/detail',
    {
      schema: {
        tags: ['/agent-app/message-template'],
        summary: "One bulk send's rows with their status, times and errors, in row order",
        description:
          'Paged by data.page / data.page_size (up to 500). Time and error fields appear once set; row is the 1-based row number, row_id the client\'s id. ' +
          'Addition: `status` lists only rows in that message status (`pagination.total` counts them); `data.after_row` pages by keyset ' +
          '(the rows after that row number), as fast deep in a 1,000,000-row bulk send as on its first page; `data.send_name` is the bulk send\'s own name, ' +
          '`data.status` its status and `data.allowed_actions` what the user may do to it now.',
        body: ReportDetailBody,
        response: { 200: ReportDetailResponse, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const page = request.body.data?.page ?? 1;
      const pageSize = request.body.data?.page_size ?? 20;
      const { bulkSend, rows, total } = await bulkSendReport(deps.db, request.companyId, request.body.id, page, pageSize, {
        status: request.body.status,
        afterRow: request.body.data?.after_row,
      });
      return {
        success: true as const,
        data: {
          report_details: rows.map(toReportItem) as never,
          send_name: bulkSend.send_name,
          status: bulkSend.status as never,
          allowed_actions: allowedActions(bulkSend),
          cost: (await costsOfBulkSends(deps.db, request.companyId, [bulkSend.id])).get(bulkSend.id)!,
        },
        pagination: { page, page_size: pageSize, total },
      };
    },
  );
};
