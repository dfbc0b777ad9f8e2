/** Family B: channel phone status and the channel list. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listChannelHealth, readChannelHealth } from '../../engine/channel-health.js';
import { findStaleStatusWebhooks } from '../../store/channel-status-webhooks.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, apiV1Body, apiV1Schema } from '../envelope.js';
import { windowUseByChannel } from '../../store/tier-window.js';
import { CHANNEL_ITEM, exB, PHONE_STATUS_B } from '../openapi/examples.js';
import {
  blockedReason, ChannelItem, ChannelQuery, MarketingMessagesBody, MarketingMessagesSetting, PhoneStatusB, tierUse, toChannelItem, toPhoneStatusB,
} from '../schemas/channel.js';
import { marketingMessagesOf, setMarketingMessages } from '../../engine/marketing-route.js';

/** GET /api/v1/message-templates/waba-status and GET /api/v1/channels */
export const apiV1ChannelRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.get(
    '/message-templates/waba-status',
    {
      schema: {
        tags: ['/api/v1'],
        summary: 'Phone status of a channel (quality in quality_rating)',
        description:
          "The channel's status, quality and messaging tier, refreshed from the network when older than 30 s. " +
          'A channel of another company answers 404 CHANNEL_NOT_FOUND.',
        querystring: ChannelQuery,
        response: { 200: apiV1Schema({ data: PhoneStatusB }, { examples: [exB({ data: PHONE_STATUS_B })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const row = await readChannelHealth(deps.channelHealth, request.companyId, request.query.channel_id);
      return apiV1Body(request, { data: toPhoneStatusB(row) });
    },
  );

  app.get(
    '/channels',
    {
      schema: {
        tags: ['/api/v1'],
        summary: "The caller's channels with their status, refreshed from the network when stale (addition)",
        description:
          'Every channel of the company with status, quality, tier, the throughput it sends at, a token problem (auth_error) ' +
          'and status_webhooks_stale_since when status webhooks stopped arriving.',
        response: { 200: apiV1Schema({ items: Type.Array(ChannelItem) }, { examples: [exB({ items: [CHANNEL_ITEM] })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const rows = await listChannelHealth(deps.channelHealth, request.companyId);
      const stale = await findStaleStatusWebhooks(deps.db, request.companyId);
      const use = await windowUseByChannel(deps.db, request.companyId);
      const items = rows.map((row) => ({
        ...toChannelItem(row),
        status_webhooks_stale_since: stale.get(row.id)?.toISOString() ?? null,
        ...tierUse(row, use.get(row.id)),
        blocked_reason: blockedReason(row),
      }));
      return apiV1Body(request, { items });
    },
  );

  app.put(
    '/channels/:channel_id/marketing-messages',
    {
      schema: {
        tags: ['family B'],
        summary: "Send the channel's MARKETING templates through the Marketing Messages API, or not (added beyond the interface)",
        description:
          'On: MARKETING templates go through POST /{phone-number-id}/marketing_messages (Meta\'s delivery optimisation; a bulk start may add ' +
          'message_send_ttl_seconds); UTILITY and AUTHENTICATION templates always use /messages. If the network refuses the account ' +
          '(134102, not onboarded), the refused row goes by /messages (no message was created; never sent twice) and the service switches ' +
          'the setting off with disabled_reason. Setting it again clears that reason. Another company\'s channel is 404 CHANNEL_NOT_FOUND.',
        params: ChannelQuery,
        body: MarketingMessagesBody,
        response: {
          200: apiV1Schema(
            { data: Type.Object({ channel_id: Type.String(), marketing_messages: MarketingMessagesSetting }) },
            { examples: [exB({ data: { channel_id: '110000000000001', marketing_messages: { enabled: true, disabled_reason: null, disabled_at: null } } })] },
          ),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const row = await setMarketingMessages(deps.db, request.companyId, request.params.channel_id, request.body.enabled);
      return apiV1Body(request, { data: { channel_id: row.id, marketing_messages: marketingMessagesOf(row) } });
    },
  );
};
