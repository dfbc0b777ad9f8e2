/** Family B: check-name, create, list, get, delete, languages, categories. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { checkTemplateName, createTemplate, deleteTemplate, getChannelTemplate, listChannelTemplates } from '../../engine/templates.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, familyB, familyBSchema } from '../envelope.js';
import { idempotentRoute } from '../idempotency.js';
import { ChannelQuery } from '../schemas/channel.js';
import {
  CATEGORY_LIST,
  CategoryEntry,
  CheckNameBody,
  CreateTemplateB,
  LANGUAGE_LIST,
  LanguageEntry,
  TemplateView,
  toTemplateView,
} from '../schemas/template.js';

const IdParams = Type.Object({ message_template_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

/** The family B template routes. */
export const familyBTemplateRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/message-templates/check-name',
    {
      schema: {
        tags: ['family B'],
        summary: 'Check a template name on a channel (needed within the hour before create)',
        body: CheckNameBody,
        response: { 200: familyBSchema({}), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      await checkTemplateName(deps.templates, request.companyId, request.body.channel_id, request.body.name);
      return familyB(request, {});
    },
  );

  app.post(
    '/message-templates',
    {
      ...idempotentRoute(deps.db),
      schema: {
        tags: ['family B'],
        summary: 'Create a template; the name must have been checked on the channel in the last hour',
        body: CreateTemplateB,
        response: { 200: familyBSchema({ data: Type.Object({ id: Type.String(), status: Type.String() }) }), ...ERROR_RESPONSES },
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
        allowCategoryChange: b.allow_category_change,
        fileHandle: b.file_handle,
        requireNameCheck: true,
      });
      return familyB(request, { data: { id: row.id, status: row.status } });
    },
  );

  app.get(
    '/message-templates',
    {
      schema: {
        tags: ['family B'],
        summary: "The templates of the channel's WABA",
        querystring: ChannelQuery,
        response: { 200: familyBSchema({ items: Type.Array(TemplateView) }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const rows = await listChannelTemplates(deps.templates, request.companyId, request.query.channel_id);
      return familyB(request, { items: rows.map(toTemplateView) });
    },
  );

  app.get(
    '/message-templates/languages',
    {
      schema: {
        tags: ['family B'],
        summary: "The network's template languages",
        response: { 200: familyBSchema({ data: Type.Object({ languages: Type.Array(LanguageEntry) }) }), ...ERROR_RESPONSES },
      },
    },
    async (request) => familyB(request, { data: { languages: LANGUAGE_LIST } }),
  );

  app.get(
    '/message-templates/categories',
    {
      schema: {
        tags: ['family B'],
        summary: 'Categories supported for creation',
        response: { 200: familyBSchema({ data: Type.Object({ categories: Type.Array(CategoryEntry) }) }), ...ERROR_RESPONSES },
      },
    },
    async (request) => familyB(request, { data: { categories: CATEGORY_LIST } }),
  );

  app.get(
    '/message-templates/:message_template_id',
    {
      schema: {
        tags: ['family B'],
        summary: 'One template',
        params: IdParams,
        querystring: ChannelQuery,
        response: { 200: familyBSchema({ data: Type.Object({ message_template: TemplateView }) }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const row = await getChannelTemplate(deps.templates, request.companyId, request.query.channel_id, request.params.message_template_id);
      return familyB(request, { data: { message_template: toTemplateView(row) } });
    },
  );

  app.delete(
    '/message-templates/:message_template_id',
    {
      schema: {
        tags: ['family B'],
        summary: 'Delete a template (at the network too; the name is blocked for 30 days)',
        params: IdParams,
        response: { 200: familyBSchema({}), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      await deleteTemplate(deps.templates, request.companyId, request.params.message_template_id, 'message_template_id');
      return familyB(request, {});
    },
  );
};
