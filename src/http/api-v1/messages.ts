/** Message status lookup: by ids (the interface's route) and by recipient, newest first (an addition). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listChannels } from '../../store/channels.js';
import { normalizePhone } from '../../domain/phone.js';
import { AppError } from '../../errors.js';
import { parseBsuid } from '../../domain/recipients.js';
import { findMessagesOfRecipient, type LookupRecipient } from '../../store/message-lookup.js';
import { findMessagesByIds } from '../../store/message-inserts.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, apiV1Body, apiV1Schema } from '../envelope.js';
import { exB, MESSAGE_RECORD } from '../openapi/examples.js';
import { MessageLookupBody, MessageRecord, MessageSearchQuery, toMessageRecord } from '../schemas/message.js';

/** Who a lookup asks for: exactly one of phone_number and user_id, checked (400 naming the field). */
function lookupRecipient(q: { phone_number?: string; user_id?: string }): LookupRecipient {
  if (q.phone_number !== undefined && q.user_id !== undefined) {
    throw new AppError('VALIDATION_FAILED', 'give phone_number or user_id, not both', { field: 'user_id' });
  }
  if (q.user_id !== undefined) {
    const bsuid = parseBsuid(q.user_id);
    if (!bsuid.ok) throw new AppError('VALIDATION_FAILED', bsuid.reason, { field: 'user_id' });
    return { userId: bsuid.userId };
  }
  if (q.phone_number === undefined) throw new AppError('VALIDATION_FAILED', 'phone_number or user_id (a BSUID) is required', { field: 'phone_number' });
  const phone = normalizePhone(q.phone_number);
  if (!phone.ok) throw new AppError('VALIDATION_FAILED', phone.reason, { field: 'phone_number' });
  return { phone: phone.e164 };
}

/** POST /api/v1/messages and GET /api/v1/messages?phone_number= (or ?user_id=) */
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
        summary: "A recipient's messages by phone number or BSUID, newest first (addition)",
        description:
          "The company's messages to one recipient (single sends and bulk-send rows), newest first, as the same records " +
          'as POST /api/v1/messages: by phone_number, or by user_id (a BSUID: the messages sent to it or whose recipient the network ' +
          'reported with it). Once the network has linked the phone number and the BSUID (shown them together), each lookup also ' +
          'returns the messages stored under the other one alone: by user_id, the messages to the linked number that carry no BSUID; ' +
          'by phone_number, the messages to a linked BSUID that carry no phone number. Pages with limit (1-100, default 20) and after (the `next` of the previous page); ' +
          '`next` is null on the last page. A recipient nobody sent to answers an empty list; a malformed one is 400 naming its field.',
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
      const who = lookupRecipient(request.query);
      const limit = Number(request.query.limit ?? 20);
      if (limit > 100) throw new AppError('VALIDATION_FAILED', 'limit is at most 100', { field: 'limit' });
      // One row more than the page tells whether another page follows.
      const rows = await findMessagesOfRecipient(deps.db, request.companyId, who, limit + 1, request.query.after);
      const page = rows.slice(0, limit);
      const numbers = new Map((await listChannels(deps.db, request.companyId)).map((c) => [c.id, c.display_phone_number]));
      return apiV1Body(request, {
        items: page.map((r) => toMessageRecord(r, numbers.get(r.channel_id) ?? '')),
        next: rows.length > limit ? page[page.length - 1].id : null,
      });
    },
  );
};
