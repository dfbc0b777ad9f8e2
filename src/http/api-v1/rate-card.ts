/** Family B: the company's rate card (Meta's list prices per market and pricing category; beyond the interface). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rateCardOf, replaceRateCard, resetRateCard } from '../../engine/pricing.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, apiV1Body, apiV1Schema } from '../envelope.js';
import { exB } from '../openapi/examples.js';
import { RateCardBody, RateCardSchema } from '../schemas/pricing.js';

const TAGS = ['/api/v1'];
const CARD_RESPONSE = apiV1Schema({ data: RateCardSchema }, { examples: [exB({ data: (RateCardSchema as unknown as { examples: unknown[] }).examples[0] })] });
const ABOUT =
  "Costs in reports and dry runs are estimated with it at Meta's list price: not an invoice (volume tiers, free windows, taxes and " +
  "a provider's fees are not in it). A market or category without a figure is reported as unknown, never priced.";

/** GET, PUT and DELETE /api/v1/rate-card */
export const apiV1RateCardRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  app.get(
    '/rate-card',
    {
      schema: {
        tags: TAGS,
        summary: "The company's rate card: its own, or the one shipped with the service (addition)",
        description: `${ABOUT} The shipped card gives each figure's public source and its effective date.`,
        response: { 200: CARD_RESPONSE, ...ERROR_RESPONSES },
      },
    },
    async (request) => apiV1Body(request, { data: await rateCardOf(deps.db, request.companyId) }),
  );

  app.put(
    '/rate-card',
    {
      schema: {
        tags: TAGS,
        summary: "Replace the company's rate card (addition)",
        description:
          `${ABOUT} The whole card is replaced. A bad currency, date, market (ISO 3166-1 alpha-2), category, a negative price or one with ` +
          'more than 6 decimals, or a market and category given twice is 400 RATE_CARD_INVALID naming the field (rates[i].price); nothing is written.',
        body: RateCardBody,
        response: { 200: CARD_RESPONSE, ...ERROR_RESPONSES },
      },
      // The service checks the card itself, so every mistake gets RATE_CARD_INVALID with its field (and the CLI the same).
      validatorCompiler: () => () => true,
    },
    async (request) => apiV1Body(request, { data: await replaceRateCard(deps.db, request.companyId, request.body) }),
  );

  app.delete(
    '/rate-card',
    {
      schema: {
        tags: TAGS,
        summary: 'Go back to the rate card shipped with the service (addition)',
        description: ABOUT,
        response: { 200: CARD_RESPONSE, ...ERROR_RESPONSES },
      },
    },
    async (request) => apiV1Body(request, { data: await resetRateCard(deps.db, request.companyId) }),
  );
};
