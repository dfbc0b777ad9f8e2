/**
 * Family A bulk-send lifecycle routes, beyond the interface (docs/bulk-send-lifecycle.md): pause and resume by
 * the user, and retry of a finished bulk send's failed rows. Bodies name the bulk send and its channel, as stop.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { pauseBulkSend, resumeBulkSend, retryBulkSend } from '../../engine/bulk-lifecycle.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES } from '../envelope.js';
import { PauseBodyA, PauseData, RetryBodyA, RetryData } from '../schemas/bulk-send-lifecycle.js';

const ok = <T extends Parameters<typeof Type.Object>[0]>(data: ReturnType<typeof Type.Object<T>>) =>
  Type.Object({ success: Type.Literal(true), data });

/** POST /send-wizard/pause, /send-wizard/resume, /send-wizard/retry. */
export const agentAppBulkSendLifecycleRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/send-wizard/pause',
    {
      schema: {
        tags: ['/agent-app/message-template'],
        summary: 'Pause a bulk send (addition): no new row is handed to the network until resume',
        description:
          'RUNNING or PAUSED (by the service) → PAUSED_BY_USER. Every row not yet handed to the network goes back to waiting (NONE, counted in `waiting`); rows already with the network keep receiving status events. The service never resumes it by itself. A second pause answers 200 with the same status; a SCHEDULED bulk send is 409 BULK_SEND_NOT_STARTED, a STOPPED or COMPLETED one 409 BULK_SEND_FINISHED.',
        body: PauseBodyA,
        response: { 200: ok(PauseData), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const data = await pauseBulkSend(deps.db, { companyId: request.companyId, id: request.body.send_wizard_id, channelId: request.body.channel_id, field: 'send_wizard_id' });
      return { success: true as const, data: { ...data, window_seconds: 0 } };
    },
  );

  app.post(
    '/send-wizard/resume',
    {
      schema: {
        tags: ['/agent-app/message-template'],
        summary: 'Resume a bulk send the user paused (addition)',
        description:
          "PAUSED_BY_USER → RUNNING, or PAUSED when the service's own reason (channel FLAGGED/RED, tier quota, refused token) was in force at the pause: the service lifts it when its rows can go again. The rest of the total_time window, frozen at the pause, restarts now and the waiting rows are spread over it (none left: as fast as the channel's throughput allows). Resuming a RUNNING or service-PAUSED bulk send changes nothing (200); SCHEDULED is 409 BULK_SEND_NOT_STARTED, STOPPED or COMPLETED 409 BULK_SEND_FINISHED.",
        body: PauseBodyA,
        response: { 200: ok(PauseData), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const data = await resumeBulkSend(deps.db, { companyId: request.companyId, id: request.body.send_wizard_id, channelId: request.body.channel_id, field: 'send_wizard_id' }, deps.bulk.started);
      return { success: true as const, data };
    },
  );

  app.post(
    '/send-wizard/retry',
    {
      schema: {
        tags: ['/agent-app/message-template'],
        summary: 'A new bulk send from the failed rows of a finished one (addition)',
        description:
          'Takes the failed rows (OPT_IN_FAILED, OPT_IN_FAILED_INVALID_NUMBER, SENT_TO_BACKEND_FAILED, BACKEND_FAILED) of a COMPLETED or STOPPED bulk send, optionally only those whose network error code is in `error_codes`, into a new bulk send of the same template and channel (rows renumbered 1..n in their order, same parameters), starting now or at `scheduled_at`, spread over `total_time` (default 0). Never taken: a row the network accepted before it failed by timeout (SENT_TO_BACKEND_FAILED after SENT_TO_BACKEND) or whose outcome is unknown (OUTCOME_UNKNOWN), and a recipient with a later message of the same template in the company that neither failed nor was cancelled. An unfinished bulk send is 409 BULK_SEND_NOT_FINISHED; nothing to take is 409 NO_ROWS_TO_RETRY.',
        body: RetryBodyA,
        response: { 200: ok(RetryData), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { send_wizard_id: id, channel_id: channelId, ...options } = request.body;
      const data = await retryBulkSend(deps.bulk, { companyId: request.companyId, id, channelId, field: 'send_wizard_id' }, options);
      return { success: true as const, data };
    },
  );
};
