/**
 * Family B bulk-send lifecycle routes, beyond the interface (docs/bulk-send-lifecycle.md): pause, resume and
 * retry of `/api/v1/send-wizards/{id}`. Same rules as family A's; the bulk send is named by its id alone.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pauseBulkSend, resumeBulkSend, retryBulkSend } from '../../engine/bulk-lifecycle.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, apiV1Body, apiV1Schema } from '../envelope.js';
import { PauseData, RetryBodyB, RetryData, BulkSendIdParams } from '../schemas/bulk-send-lifecycle.js';

/** POST /send-wizards/{id}/pause, /resume, /retry. */
export const apiV1BulkSendRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/send-wizards/:id/pause',
    {
      schema: {
        tags: ['/api/v1'],
        summary: 'Pause a bulk send (addition): no new row is handed to the network until resume',
        description:
          'RUNNING or PAUSED (by the service) → PAUSED_BY_USER; rows not yet handed to the network wait again (NONE). No body. A second pause answers 200; SCHEDULED is 409 BULK_SEND_NOT_STARTED, STOPPED/COMPLETED 409 BULK_SEND_FINISHED; another company\'s id 404.',
        params: BulkSendIdParams,
        response: { 200: apiV1Schema({ data: PauseData }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const data = await pauseBulkSend(deps.db, { companyId: request.companyId, id: request.params.id, field: 'id' });
      return apiV1Body(request, { data: { ...data, window_seconds: 0 } });
    },
  );

  app.post(
    '/send-wizards/:id/resume',
    {
      schema: {
        tags: ['/api/v1'],
        summary: 'Resume a bulk send the user paused (addition)',
        description:
          "PAUSED_BY_USER → RUNNING, or PAUSED when the service's own reason was in force at the pause. The rest of the total_time window restarts now. No body. RUNNING or PAUSED: 200, unchanged; SCHEDULED 409 BULK_SEND_NOT_STARTED; STOPPED/COMPLETED 409 BULK_SEND_FINISHED.",
        params: BulkSendIdParams,
        response: { 200: apiV1Schema({ data: PauseData }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const data = await resumeBulkSend(deps.db, { companyId: request.companyId, id: request.params.id, field: 'id' }, deps.bulk.started);
      return apiV1Body(request, { data });
    },
  );

  app.post(
    '/send-wizards/:id/retry',
    {
      schema: {
        tags: ['/api/v1'],
        summary: 'A new bulk send from the failed rows of a finished one (addition)',
        description:
          'Same rules as `POST /agent-app/message-template/send-wizard/retry`; the body holds only the options (`{}` for every failed row now).',
        params: BulkSendIdParams,
        body: RetryBodyB,
        response: { 200: apiV1Schema({ data: RetryData }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const data = await retryBulkSend(deps.bulk, { companyId: request.companyId, id: request.params.id, field: 'id' }, request.body);
      return apiV1Body(request, { data });
    },
  );
};
