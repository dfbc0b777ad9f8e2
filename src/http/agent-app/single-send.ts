/** Family A: the single send. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendSingle } from '../../engine/single-send.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES } from '../envelope.js';
import { TOKEN_CHECKED_BY_ROUTE } from '../auth.js';
import { idempotencyFence, idempotentRoute } from '../idempotency.js';
import { documented, IDEMPOTENCY_HEADER_DOC } from '../openapi/doc-only.js';
import { EX } from '../openapi/examples.js';
import { SingleSendBody } from '../schemas/message.js';

/** POST /agent-app/message-template/single-messagev2 */
export const agentAppSingleSendRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/single-messagev2',
    {
      ...idempotentRoute(deps.db, { instance: deps.instance }),
      config: { ...documented({ headers: IDEMPOTENCY_HEADER_DOC }), ...TOKEN_CHECKED_BY_ROUTE },
      schema: {
        tags: ['/agent-app/message-template'],
        summary: 'Send one template message (queued, handed to the network at most once)',
        description:
          'Checks everything first (template APPROVED and of the channel\'s WABA, parameters against the template, the recipient: ' +
          'an E.164 phone_number and/or a BSUID `recipient`, one of them required, ' +
          'channel not blocked, tier quota), then queues the message; the dispatcher hands it to the network at most once. ' +
          'message_template carries the parameters: BODY/header text values (with parameter_name for a NAMED template), ' +
          'button variables and carousel cards — see docs/send-parameters.md. A value the template does not take (body values past its variables, ' +
          'a button it lacks, a field an entry does not have) is 400 PARAMETERS_INVALID naming it, never dropped. The status follows in POST /api/v1/messages. ' +
          'Optional Idempotency-Key header.',
        body: SingleSendBody,
        response: {
          200: Type.Object(
            { success: Type.Literal(true), data: Type.Object({ message_id: Type.String() }) },
            { examples: [{ success: true, data: { message_id: EX.messageId } }] },
          ),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const fence = idempotencyFence(request, reply);
      const pending = request.pendingToken;
      const id = await sendSingle(deps.singleSend, request.companyId, {
        channelId: b.channel_id,
        phoneNumber: b.phone_number,
        recipient: b.recipient,
        templateId: b.message_template_id,
        fullName: b.full_name,
        components: b.message_template,
        token: pending && {
          hash: pending.hash,
          checked: () => (pending.checked = true),
          revoked: () => pending.revoked(),
        },
      }, fence && ((tx, messageId) => fence(tx, { success: true, data: { message_id: messageId } })));
      return { success: true as const, data: { message_id: id } };
    },
  );
};
