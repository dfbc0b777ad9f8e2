/** Family A: the single send. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendSingle } from '../../engine/single-send.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES } from '../envelope.js';
import { idempotencyFence, idempotentRoute } from '../idempotency.js';
import { SingleSendBody } from '../schemas/message.js';

/** POST /agent-app/message-template/single-messagev2 */
export const familyASingleSendRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/single-messagev2',
    {
      ...idempotentRoute(deps.db),
      schema: {
        tags: ['family A'],
        summary: 'Send one template message (queued, handed to the network at most once)',
        body: SingleSendBody,
        response: { 200: Type.Object({ success: Type.Literal(true), data: Type.Object({ message_id: Type.String() }) }), ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const fence = idempotencyFence(request, reply);
      const id = await sendSingle(deps.singleSend, request.companyId, {
        channelId: b.channel_id,
        phoneNumber: b.phone_number,
        templateId: b.message_template_id,
        fullName: b.full_name,
        components: b.message_template,
      }, fence && ((tx, messageId) => fence(tx, { success: true, data: { message_id: messageId } })));
      return { success: true as const, data: { message_id: id } };
    },
  );
};
