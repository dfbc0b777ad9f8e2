/** Family B: check-name, create, list, get, delete, languages, categories. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { checkTemplateName, createTemplate, deleteTemplate, getChannelTemplate, listChannelTemplates } from '../../engine/templates.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, apiV1Body, apiV1Schema } from '../envelope.js';
import { idempotentRoute } from '../idempotency.js';
import { ChannelQuery } from '../schemas/channel.js';
import { documented, IDEMPOTENCY_HEADER_DOC } from '../openapi/doc-only.js';
import { EX, exB, TEMPLATE_VIEW } from '../openapi/examples.js';
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

const IdParams = Type.Object({ message_template_id: Type.String({ minLength: 1, maxLength: 64, examples: [EX.templateId] }) }, { additionalProperties: false });

/** The family B template routes. */
export const apiV1TemplateRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.post(
    '/message-templates/check-name',
    {
      schema: {
        tags: ['/api/v1'],
        summary: 'Check a template name on a channel (needed within the hour before create)',
        description:
          'Answers 200 when the name is valid and free on the channel\'s WABA (not used, not deleted in the last 30 days); ' +
          '409 TEMPLATE_NAME_TAKEN or 400 TEMPLATE_NAME_INVALID otherwise. A create of that name on that channel needs this within the hour.',
        body: CheckNameBody,
        response: { 200: apiV1Schema({}, { examples: [exB({})] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      await checkTemplateName(deps.templates, request.companyId, request.body.channel_id, request.body.name);
      return apiV1Body(request, {});
    },
  );

  app.post(
    '/message-templates',
    {
      ...idempotentRoute(deps.db, { instance: deps.instance }),
      config: documented({ headers: IDEMPOTENCY_HEADER_DOC }),
      schema: {
        tags: ['/api/v1'],
        summary: 'Create a template; the name must have been checked on the channel in the last hour',
        description:
          'Like `POST /agent-app/message-template/template`; an IMAGE, VIDEO or DOCUMENT header takes file_handle from POST /api/v1/media (422 MEDIA_REQUIRED without). ' +
          'Without a check-name of the name on the channel in the last hour: 422 NAME_NOT_CHECKED. Optional Idempotency-Key header.',
        body: CreateTemplateB,
        response: {
          200: apiV1Schema(
            { data: Type.Object({ id: Type.String(), status: Type.String({ description: 'PENDING until the network reviews it' }) }) },
            { examples: [exB({ data: { id: EX.templateId, status: 'PENDING' } })] },
          ),
          ...ERROR_RESPONSES,
        },
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
      return apiV1Body(request, { data: { id: row.id, status: row.status } });
    },
  );

  app.get(
    '/message-templates',
    {
      schema: {
        tags: ['/api/v1'],
        summary: "The templates of the channel's WABA",
        description:
          "Every template of the WABA the channel belongs to, including those made in WhatsApp Manager (imported on the way), " +
          'with review statuses refreshed from the network when stale.',
        querystring: ChannelQuery,
        response: { 200: apiV1Schema({ items: Type.Array(TemplateView) }, { examples: [exB({ items: [TEMPLATE_VIEW] })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const rows = await listChannelTemplates(deps.templates, request.companyId, request.query.channel_id);
      return apiV1Body(request, { items: rows.map(toTemplateView) });
    },
  );

  app.get(
    '/message-templates/languages',
    {
      schema: {
        tags: ['/api/v1'],
        summary: "The network's template languages",
        description: 'The language codes a create takes in language (value), with their names.',
        response: {
          200: apiV1Schema({ data: Type.Object({ languages: Type.Array(LanguageEntry) }) }, { examples: [exB({ data: { languages: [{ value: 'en_US', title: 'English (US)' }] } })] }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => apiV1Body(request, { data: { languages: LANGUAGE_LIST } }),
  );

  app.get(
    '/message-templates/categories',
    {
      schema: {
        tags: ['/api/v1'],
        summary: 'Categories supported for creation',
        description: 'The categories a create takes in category (MARKETING).',
        response: {
          200: apiV1Schema({ data: Type.Object({ categories: Type.Array(CategoryEntry) }) }, { examples: [exB({ data: { categories: CATEGORY_LIST } })] }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => apiV1Body(request, { data: { categories: CATEGORY_LIST } }),
  );

  app.get(
    '/message-templates/:message_template_id',
    {
      schema: {
        tags: ['/api/v1'],
        summary: 'One template',
        description: "A template of the channel's WABA by id; another company's id answers 404 NOT_FOUND like a missing one.",
        params: IdParams,
        querystring: ChannelQuery,
        response: {
          200: apiV1Schema({ data: Type.Object({ message_template: TemplateView }) }, { examples: [exB({ data: { message_template: TEMPLATE_VIEW } })] }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const row = await getChannelTemplate(deps.templates, request.companyId, request.query.channel_id, request.params.message_template_id);
      return apiV1Body(request, { data: { message_template: toTemplateView(row) } });
    },
  );

  app.delete(
    '/message-templates/:message_template_id',
    {
      schema: {
        tags: ['/api/v1'],
        summary: 'Delete a template (at the network too; the name is blocked for 30 days)',
        description: 'Deletes the template at the network and here; its name cannot be used on the WABA for 30 days (the network\'s rule).',
        params: IdParams,
        response: { 200: apiV1Schema({}, { examples: [exB({})] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      await deleteTemplate(deps.templates, request.companyId, request.params.message_template_id, 'message_template_id');
      return apiV1Body(request, {});
    },
  );
};
