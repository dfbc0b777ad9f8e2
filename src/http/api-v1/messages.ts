/** Message status lookup: by ids (the interface's route) and by recipient, newest first (an addition). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listChannels } from '../../store/channels.js';
import { normalizePhone } from '../../domain/phone.js';
import { AppError } from '../../errors.js';
import { findMessagesByPhone } from '../../store/message-lookup.js';
import { findMessagesByIds } from '../../store/message-inserts.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, apiV1Body, apiV1Schema } from '../envelope.js';
import { exB, MESSAGE_RECORD } from '../openapi/examples.js';
import { MessageLookupBody, MessageRecord, MessageSearchQuery, toMessageRecord } from '../schemas/message.js';

/** POST /api/v1/messages and GET /api/v1/messages?phone_number= */
export const apiV1MessageRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/messages',
    {
      schema: {
        tags: ['/api/v1'],
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

  app.get(
    '/messages',
    {
      schema: {
        tags: ['/api/v1'],
        summary: "A recipient's messages, newest first (addition)",
        description:
          "The company's messages to one phone number (single sends and bulk-send rows), newest first, as the same records " +
          'as POST /api/v1/messages. Pages with limit (1-100, default 20) and after (the `next` of the previous page); ' +
          '`next` is null on the last page. A number nobody sent to answers an empty list; a malformed one is 400 naming phone_number.',
        querystring: MessageSearchQuery,
        response: {
          200: apiV1Schema(
            { items: Type.Array(MessageRecord), next: Type.Union([Type.String(), Type.Null()], { description: 'pass as `after` for the next page; null on the last' }) },
            { examples: [exB({ items: [MESSAGE_RECORD], next: null })] },
          ),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const phone = normalizePhone(request.query.phone_number);
      if (!phone.ok) throw new AppError('VALIDATION_FAILED', phone.reason, { field: 'phone_number' });
      const limit = Number(request.query.limit ?? 20);
      if (limit > 100) throw new AppError('VALIDATION_FAILED', 'limit is at most 100', { field: 'limit' });
      // One row more than the page tells whether another page follows.
      const rows = await findMessagesByPhone(deps.db, request.companyId, phone.e164, limit + 1, request.query.after);
      const page = rows.slice(0, limit);
      const numbers = new Map((await listChannels(deps.db, request.companyId)).map((c) => [c.id, c.display_phone_number]));
      return apiV1Body(request, {
        items: page.map((r) => toMessageRecord(r, numbers.get(r.channel_id) ?? '')),
        next: rows.length > limit ? page[page.length - 1].id : null,
      });
    },
  );
};
