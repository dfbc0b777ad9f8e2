/** Family A: template create (v1, v2), list, get-by-id, delete. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createTemplate, deleteTemplate, getChannelTemplate, listChannelTemplates } from '../../engine/templates.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES } from '../envelope.js';
import { idempotentRoute } from '../idempotency.js';
import { ChannelQuery } from '../schemas/channel.js';
import { CreateTemplateA, CreatedA, CreateTemplateV2, TemplateView, toTemplateView } from '../schemas/template.js';

/** The family A template routes. */
export const familyATemplateRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/template',
    {
      ...idempotentRoute(deps.db),
      schema: {
        tags: ['family A'],
        summary: 'Create a template (v1); submitted to the network for review, starts PENDING',
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
      ...idempotentRoute(deps.db),
      schema: {
        tags: ['family A'],
        summary: 'Create a template (v2, carousel capable, lower-case component types accepted)',
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
        tags: ['family A'],
        summary: "The templates of the channel's WABA",
        querystring: ChannelQuery,
        response: { 200: Type.Object({ success: Type.Literal(true), items: Type.Array(TemplateView) }), ...ERROR_RESPONSES },
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
        tags: ['family A'],
        summary: 'One template',
        querystring: Type.Object(
          { template_id: Type.String({ minLength: 1, maxLength: 64 }), channel_id: Type.String({ minLength: 1, maxLength: 64 }) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ success: Type.Literal(true), data: Type.Object({ message_template: TemplateView }) }),
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
        tags: ['family A'],
        summary: 'Delete a template (at the network too; the name is blocked for 30 days)',
        body: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ success: Type.Literal(true) }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      await deleteTemplate(deps.templates, request.companyId, request.body.id, 'id');
      return { success: true as const };
    },
  );
};
