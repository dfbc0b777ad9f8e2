/**
 * Family B: client webhook endpoints and their delivery log (added beyond the interface; docs/webhooks-out.md).
 * Every route is scoped to the caller's company: another company's endpoint or delivery id answers 404.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  createEndpoint,
  getEndpointWithBacklog,
  listEndpointDeliveries,
  listEndpoints,
  patchEndpoint,
  removeEndpoint,
  replayDelivery,
  type WebhookEndpointDeps,
} from '../../engine/webhook-endpoints.js';
import { invalid } from '../../errors.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, apiV1Body, apiV1Schema } from '../envelope.js';
import { exB } from '../openapi/examples.js';
import {
  CreateEndpointBody,
  DeliveriesQuery,
  DeliveryParams,
  DeliveryView,
  EXAMPLE_DELIVERY,
  EXAMPLE_ENDPOINT,
  EndpointParams,
  EndpointView,
  EndpointWithSecret,
  PatchedEndpoint,
  PatchEndpointBody,
  toDeliveryView,
  toEndpointView,
} from '../schemas/webhook-endpoint.js';

const TAGS = ['client webhooks'];
const ADDED = ' An addition: see docs/webhooks-out.md.';
const Pagination = Type.Object({ page: Type.Integer(), page_size: Type.Integer(), total: Type.Integer() }, { examples: [{ page: 1, page_size: 20, total: 1 }] });

/** The routes; `deps.webhookEndpoints` carries the database, the secret box and the worker's wake-up. */
export const apiV1WebhookEndpointRoutes: FastifyPluginAsyncTypebox<RouteDeps & { webhookEndpoints: WebhookEndpointDeps }> = async (app, deps) => {
  const d = deps.webhookEndpoints;

  app.post(
    '/webhook-endpoints',
    {
      schema: {
        tags: TAGS,
        summary: 'Register a client webhook endpoint',
        description:
          'Every status change of the selected events is POSTed to the URL, signed with the secret (X-TMS-Signature). ' +
          'The secret is in this answer only; it is stored sealed and never shown again (rotate it with PATCH).' + ADDED,
        body: CreateEndpointBody,
        response: { 200: apiV1Schema({ data: EndpointWithSecret }, { examples: [exB({ data: { ...EXAMPLE_ENDPOINT, secret: 'whsec_q5cJ0n1lQe0N2yq2Yw0m7m4o3v0cX1x8dGq8m2pK1sQ' } })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { endpoint, secret } = await createEndpoint(d, request.companyId, request.body);
      return apiV1Body(request, { data: { ...toEndpointView(endpoint), secret } });
    },
  );

  app.get(
    '/webhook-endpoints',
    {
      schema: {
        tags: TAGS,
        summary: "The caller's webhook endpoints",
        description: 'Oldest first, without secrets; `enabled`, `disabled_reason`, the failure streak and `backlog` (pending deliveries, the oldest, the next attempt) show their health.' + ADDED,
        response: { 200: apiV1Schema({ items: Type.Array(EndpointView) }, { examples: [exB({ items: [EXAMPLE_ENDPOINT] })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => apiV1Body(request, { items: (await listEndpoints(d, request.companyId)).map(toEndpointView) }),
  );

  app.get(
    '/webhook-endpoints/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'One webhook endpoint',
        description: 'Without its secret. Another company\'s id answers 404 WEBHOOK_ENDPOINT_NOT_FOUND.' + ADDED,
        params: EndpointParams,
        response: { 200: apiV1Schema({ data: EndpointView }, { examples: [exB({ data: EXAMPLE_ENDPOINT })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => apiV1Body(request, { data: toEndpointView(await getEndpointWithBacklog(d, request.companyId, request.params.id)) }),
  );

  app.patch(
    '/webhook-endpoints/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Change a webhook endpoint: enable, disable, rotate the secret, URL, events',
        description:
          '`enabled: true` re-enables an endpoint (also one the service disabled) and clears its failure streak; ' +
          '`rotate_secret: true` replaces the secret and returns the new one once (deliveries sign with it at once).' + ADDED,
        params: EndpointParams,
        body: PatchEndpointBody,
        response: { 200: apiV1Schema({ data: PatchedEndpoint }, { examples: [exB({ data: EXAMPLE_ENDPOINT })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { endpoint, secret } = await patchEndpoint(d, request.companyId, request.params.id, request.body);
      if (request.body.enabled) d.queued?.();
      return apiV1Body(request, { data: { ...toEndpointView(endpoint), ...(secret === undefined ? {} : { secret }) } });
    },
  );

  app.delete(
    '/webhook-endpoints/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Remove a webhook endpoint and its delivery log',
        description: 'Deliveries not yet made are dropped.' + ADDED,
        params: EndpointParams,
        response: { 200: apiV1Schema({}, { examples: [exB({})] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      await removeEndpoint(d, request.companyId, request.params.id);
      return apiV1Body(request, {});
    },
  );

  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      schema: {
        tags: TAGS,
        summary: "An endpoint's delivery log, newest first",
        description:
          'Each delivery is one event to this endpoint with its attempts, last answer and state (PENDING, DELIVERED, ' +
          'FAILED). Finished deliveries are kept 7 days (CLIENT_WEBHOOK_RETENTION_SECONDS).' + ADDED,
        params: EndpointParams,
        querystring: DeliveriesQuery,
        response: { 200: apiV1Schema({ items: Type.Array(DeliveryView), pagination: Pagination }, { examples: [exB({ items: [EXAMPLE_DELIVERY], pagination: { page: 1, page_size: 20, total: 1 } })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const page = Number(request.query.page ?? 1);
      const pageSize = Number(request.query.page_size ?? 20);
      if (pageSize > 500) throw invalid('page_size', 'page_size must be 1-500');
      const { rows, total } = await listEndpointDeliveries(d, request.companyId, request.params.id, {
        state: request.query.status,
        page,
        pageSize,
      });
      return apiV1Body(request, { items: rows.map(toDeliveryView), pagination: { page, page_size: pageSize, total } });
    },
  );

  app.post(
    '/webhook-endpoints/:id/deliveries/:delivery_id/replay',
    {
      schema: {
        tags: TAGS,
        summary: 'Send a delivery again',
        description:
          'Queues the same event (same event id) as a new delivery, due now, outside the per-message order. ' +
          'The endpoint must be enabled (409 WEBHOOK_ENDPOINT_DISABLED).' + ADDED,
        params: DeliveryParams,
        response: { 200: apiV1Schema({ data: DeliveryView }, { examples: [exB({ data: { ...EXAMPLE_DELIVERY, id: '1043', status: 'PENDING', attempts: 0, next_attempt_at: '2026-11-23T16:20:00.000Z', last_attempt_at: null, last_status_code: null, delivered_at: null, replay_of: '1042' } })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const replay = await replayDelivery(d, request.companyId, request.params.id, request.params.delivery_id);
      return apiV1Body(request, { data: toDeliveryView(replay) });
    },
  );
};
