/** Family A: channel phone status. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { readChannelHealth } from '../../engine/channel-health.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES } from '../envelope.js';
import { PHONE_STATUS_A } from '../openapi/examples.js';
import { ChannelQuery, PhoneStatusA, toPhoneStatusA } from '../schemas/channel.js';

/** GET /agent-app/message-template/template/waba-status */
export const agentAppChannelRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.get(
    '/template/waba-status',
    {
      schema: {
        tags: ['/agent-app/message-template'],
        summary: 'Phone status of a channel (quality in quality_score)',
        description:
          "The channel's status, quality and messaging tier, refreshed from the network when older than 30 s. " +
          'A channel of another company answers 404 CHANNEL_NOT_FOUND.',
        querystring: ChannelQuery,
        response: {
          200: Type.Object({ success: Type.Literal(true), data: PhoneStatusA }, { examples: [{ success: true, data: PHONE_STATUS_A }] }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const row = await readChannelHealth(deps.channelHealth, request.companyId, request.query.channel_id);
      return { success: true as const, data: toPhoneStatusA(row) };
    },
  );
};
