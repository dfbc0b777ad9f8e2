/** Family A: template create (v1, v2), list, get-by-id, delete. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createTemplate, deleteTemplate, getChannelTemplate, listChannelTemplates } from '../../engine/templates.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES } from '../envelope.js';
import { idempotentRoute } from '../idempotency.js';
import { ChannelQuery } from '../schemas/channel.js';
import { EX, TEMPLATE_VIEW } from '../openapi/examples.js';
import { documented, IDEMPOTENCY_HEADER_DOC } from '../openapi/doc-only.js';
import { CreateTemplateA, CreatedA, CreateTemplateV2, TemplateView, toTemplateView } from '../schemas/template.js';

/** The family A template routes. */
export const agentAppTemplateRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/template',
    {
      ...idempotentRoute(deps.db, { instance: deps.instance }),
      config: documented({ headers: IDEMPOTENCY_HEADER_DOC }),
      schema: {
        tags: ['/agent-app/message-template'],
        summary: 'Create a template (v1); submitted to the network for review, starts PENDING',
        description:
          'Checks the template against the network\'s rules and the service\'s (MARKETING, at most 4 body variables), then submits it; ' +
          'the review status arrives by webhook (GET shows it). Every broken rule is one 400 TEMPLATE_INVALID element naming its path ' +
          '(components[1].buttons[0].url). Media headers need example.header_handle (POST /api/v1/media). Optional Idempotency-Key header.',
        body: CreateTemplateA,
        response: { 200: CreatedA, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const b = request.body;
      const row = await createTemplate(deps.templates, request.companyId, {
        channelId: b.channel_id,
        name: b.name,
        category: b.category,
        language: b.language,
        components: b.components,
        allowCategoryChange: b.allow_category_change ?? false,
        requireNameCheck: false,
      });
      return { success: true as const, data: { id: row.id, status: row.status } };
    },
  );

  app.post(
    '/templatev2',
    {
      ...idempotentRoute(deps.db, { instance: deps.instance }),
      config: documented({ headers: IDEMPOTENCY_HEADER_DOC }),
      schema: {
        tags: ['/agent-app/message-template'],
        summary: 'Create a template (v2, carousel capable, lower-case component types accepted)',
        description:
          'Like the v1 create, with the template under message_template and CAROUSEL components (2–10 cards, each a media header, ' +
          'an optional body and buttons). media_names maps each header_handle used to a file name. Optional Idempotency-Key header.',
        body: CreateTemplateV2,
        response: { 200: CreatedA, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { message_template: t, channel_id, media_names } = request.body;
      const row = await createTemplate(deps.templates, request.companyId, {
        channelId: channel_id,
        name: t.name,
        category: t.category,
        language: t.language,
        components: t.components,
        allowCategoryChange: false,
        mediaNames: media_names,
        requireNameCheck: false,
      });
      return { success: true as const, data: { id: row.id, status: row.status } };
    },
  );

  app.get(
    '/template',
    {
      schema: {
        tags: ['/agent-app/message-template'],
        summary: "The templates of the channel's WABA",
        description:
          "Every template of the WABA the channel belongs to, including those made in WhatsApp Manager (imported on the way), " +
          'with review statuses refreshed from the network when stale.',
        querystring: ChannelQuery,
        response: {
          200: Type.Object({ success: Type.Literal(true), items: Type.Array(TemplateView) }, { examples: [{ success: true, items: [TEMPLATE_VIEW] }] }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const rows = await listChannelTemplates(deps.templates, request.companyId, request.query.channel_id);
      return { success: true as const, items: rows.map(toTemplateView) };
    },
  );

  app.get(
    '/template/get-by-id',
    {
      schema: {
        tags: ['/agent-app/message-template'],
        summary: 'One template',
        description: "A template of the channel's WABA by id; another company's id answers 404 NOT_FOUND like a missing one.",
        querystring: Type.Object(
          {
            template_id: Type.String({ minLength: 1, maxLength: 64, examples: [EX.templateId] }),
            channel_id: Type.String({ minLength: 1, maxLength: 64, examples: [EX.channelId] }),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object(
            { success: Type.Literal(true), data: Type.Object({ message_template: TemplateView }) },
            { examples: [{ success: true, data: { message_template: TEMPLATE_VIEW } }] },
          ),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const row = await getChannelTemplate(deps.templates, request.companyId, request.query.channel_id, request.query.template_id);
      return { success: true as const, data: { message_template: toTemplateView(row) } };
    },
  );

  app.delete(
    '/template',
    {
      schema: {
        tags: ['/agent-app/message-template'],
        summary: 'Delete a template (at the network too; the name is blocked for 30 days)',
        description: 'Deletes the template at the network and here; its name cannot be used on the WABA for 30 days (the network\'s rule).',
        body: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false, examples: [{ id: EX.templateId }] }),
        response: { 200: Type.Object({ success: Type.Literal(true) }, { examples: [{ success: true }] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      await deleteTemplate(deps.templates, request.companyId, request.body.id, 'id');
      return { success: true as const };
    },
  );
};
