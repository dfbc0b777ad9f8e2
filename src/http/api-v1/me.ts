/** Family B: the caller's company (added beyond the interface, for the web console's header). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { findCompany } from '../../store/companies.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, apiV1Body, apiV1Schema } from '../envelope.js';
import { exB } from '../openapi/examples.js';

/** The company a token belongs to. */
export const MeData = Type.Object(
  {
    company_id: Type.String({ description: 'Id of the company the bearer token belongs to' }),
    name: Type.String({ description: 'Company name (as given to tms company create)' }),
  },
  { examples: [{ company_id: '64656d6f0000000000000001', name: 'Demo company' }] },
);

/** GET /api/v1/me */
export const apiV1MeRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.get(
    '/me',
    {
      schema: {
        tags: ['/api/v1'],
        summary: "The caller's company: id and name (addition)",
        description:
          'Resolves the bearer token to its company. The web console calls it to check a token at sign-in and to show the company name. A token that is unknown or revoked gets 401 UNAUTHORIZED.',
        response: { 200: apiV1Schema({ data: MeData }, { examples: [exB({ data: { company_id: '64656d6f0000000000000001', name: 'Demo company' } })] }), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const company = await findCompany(deps.db, request.companyId);
      if (!company) throw new AppError('UNAUTHORIZED', 'The token is unknown or revoked.');
      return apiV1Body(request, { data: { company_id: company.id, name: company.name } });
    },
  );
};
