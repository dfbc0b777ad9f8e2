/** Statistics routes (additions beyond the interface): a bulk send's timeline and the overview of a period. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bulkSendTimeline, overview } from '../../engine/send-stats.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, apiV1Body, apiV1Schema } from '../envelope.js';
import { exB } from '../openapi/examples.js';
import { BulkSendIdParams } from '../schemas/bulk-send-lifecycle.js';
import { COST_EXAMPLE } from '../schemas/pricing.js';
import { OverviewData, OverviewQuery, TimelineData } from '../schemas/send-stats.js';

const TIMELINE_EXAMPLE = {
  rows: 2,
  sampled_rows: 2,
  estimated: false,
  bucket_seconds: 1,
  points: [
    { at: '2026-11-24T09:00:00.000Z', handed: 0, sent: 0, delivered: 0, read: 0, failed: 0 },
    { at: '2026-11-24T09:00:01.000Z', handed: 2, sent: 2, delivered: 1, read: 0, failed: 0 },
    { at: '2026-11-24T09:00:02.000Z', handed: 2, sent: 2, delivered: 2, read: 1, failed: 0 },
  ],
  failures: [],
};

const OVERVIEW_EXAMPLE = {
  period: '24h',
  from: '2026-11-23T09:00:00.000Z',
  to: '2026-11-24T09:00:00.000Z',
  bucket_seconds: 3600,
  channel_id: null,
  totals: { messages: 120, bulk_sends: 2, single_sends: 20, sent: 118, delivered: 110, read: 80, failed: 2, cancelled: 0, delivered_rate: 93.2, read_rate: 72.7 },
  series: [{ at: '2026-11-24T08:00:00.000Z', messages: 120, sent: 118, delivered: 110, read: 80, failed: 2 }],
  failures: [{ code: '131049', title: 'This message was not delivered to maintain healthy ecosystem engagement.', count: 2 }],
  cost: COST_EXAMPLE,
  channels: [{ channel_id: '110000000000001', name: 'Demo Main', messaging_limit_tier: 'TIER_2K', tier_limit: 2000, tier_used_24h: 118 }],
};

/** GET /send-wizards/{id}/timeline and GET /overview. */
export const apiV1SendStatsRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.get(
    '/send-wizards/:id/timeline',
    {
      schema: {
        tags: ['/api/v1'],
        summary: "A bulk send's rows over time: handed to the network, sent, delivered, read, failed; failures by reason (addition)",
        description:
          'Cumulative counts per bucket (at most 120 buckets of a whole number of seconds, minutes or hours) from the rows\' own ' +
          'time fields. sent/delivered/read are the network\'s words (BACKEND_DELIVERED, BACKEND_SENT, BACKEND_SEEN). A bulk send ' +
          'of more than 2,000 rows is read every k-th row and scaled (estimated: true), so the answer costs the same for any size. ' +
          '`failures`: every failed row counted by the code that starts its error detail, most first. ' +
          "Another company's id is 404 like a missing one.",
        params: BulkSendIdParams,
        response: { 200: apiV1Schema({ data: TimelineData }, { examples: [exB({ data: TIMELINE_EXAMPLE })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => apiV1Body(request, { data: await bulkSendTimeline(deps.db, request.companyId, request.params.id) }),
  );

  app.get(
    '/overview',
    {
      schema: {
        tags: ['/api/v1'],
        summary: 'Volume, delivery and read rates, failures by code and tier use of the last 24 h, 7 d or 30 d (addition)',
        description:
          'For the company, or one channel with channel_id: messages made in the period (bulk rows counted by their bulk ' +
          "send's creation time from its counters, single sends by their own), how many the network accepted (sent), " +
          'delivered and read, or failed, per hour (24h) or UTC day (7d, 30d); delivered_rate = delivered ÷ sent and ' +
          "read_rate = read ÷ delivered; failures grouped by the code that starts the error detail; each channel's " +
          "customers in the rolling 24 h against its tier. Another company's channel is 404 CHANNEL_NOT_FOUND.",
        querystring: OverviewQuery,
        response: { 200: apiV1Schema({ data: OverviewData }, { examples: [exB({ data: OVERVIEW_EXAMPLE })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const data = await overview(deps.db, request.companyId, request.query.period ?? '24h', request.query.channel_id ?? null);
      return apiV1Body(request, { data });
    },
  );
};
