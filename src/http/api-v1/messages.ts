/** Family B: message status lookup. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listChannels } from '../../store/channels.js';
import { findMessagesByIds } from '../../store/message-inserts.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, apiV1Body, apiV1Schema } from '../envelope.js';
import { exB, MESSAGE_RECORD } from '../openapi/examples.js';
import { MessageLookupBody, MessageRecord, toMessageRecord } from '../schemas/message.js';

/** POST /api/v1/messages */
export const apiV1MessageRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/messages',
    {
      schema: {
        tags: ['family B'],
        summary: "Status records of the caller's messages by id (unknown and other companies' ids are absent)",
        description:
          'Up to 1,000 ids (single-send message_id or report detail message_id); each found message once, with its status, ' +
          'time fields (null until set), error fields on failure and webhook_response, the status payload from the network.',
        body: MessageLookupBody,
        response: { 200: apiV1Schema({ items: Type.Array(MessageRecord) }, { examples: [exB({ items: [MESSAGE_RECORD] })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const rows = await findMessagesByIds(deps.db, request.companyId, [...new Set(request.body.message_ids)]);
      const numbers = new Map((await listChannels(deps.db, request.companyId)).map((c) => [c.id, c.display_phone_number]));
      return apiV1Body(request, { items: rows.map((r) => toMessageRecord(r, numbers.get(r.channel_id) ?? '')) });
    },
  );
};
