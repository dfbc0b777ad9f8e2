/**
 * Webhooks in: `GET /webhooks/whatsapp` answers the verification handshake; `POST` checks the
 * `X-Hub-Signature-256` HMAC of the raw body in constant time before anything is parsed, then hands the body
 * (and its parsed form, so it is parsed once) to the inbox and answers 200 once it is committed: applied in the
 * same transaction while the database keeps up, else stored first and applied after (engine/webhook-inbox.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { jsonNestsDeeperThan, TOO_DEEP_MESSAGE } from '../../domain/json-depth.js';
import { AppError } from '../../errors.js';
import { isValidVerifyToken, isValidWebhookSignature } from '../../domain/webhook-signature.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES } from '../envelope.js';
import { documented } from '../openapi/doc-only.js';
import { WebhookBodyDoc } from '../openapi/webhook-payloads.js';

/** Meta's payloads are at most 3 MB; leave headroom. */
const WEBHOOK_BODY_LIMIT = 4 * 1024 * 1024;

/** The webhook routes. */
export const webhookRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  // Raw bytes for every content type in this scope: the signature is over the bytes as sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));

  app.get(
    '/webhooks/whatsapp',
    {
      config: documented({
        response: { 200: Type.Unsafe({ description: 'hub.challenge, as plain text', content: { 'text/plain': { schema: Type.String({ examples: ['1158201444'] }) } } }) },
      }),
      schema: {
        tags: ['webhooks'],
        summary: 'Verification handshake (hub.mode=subscribe, hub.verify_token, hub.challenge)',
        description:
          'Meta calls this once when the callback URL is set: with hub.mode=subscribe and hub.verify_token equal to WEBHOOK_VERIFY_TOKEN ' +
          'the answer is hub.challenge as plain text; otherwise 403 WEBHOOK_VERIFY_FAILED. No bearer token.',
        security: [],
        querystring: Type.Object({
          'hub.mode': Type.Optional(Type.String({ examples: ['subscribe'] })),
          'hub.verify_token': Type.Optional(Type.String({ examples: ['my-verify-token'] })),
          'hub.challenge': Type.Optional(Type.String({ examples: ['1158201444'] })),
        }),
        response: { 200: Type.String(), ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const q = request.query;
      // The token is compared in constant time (over SHA-256 digests), so its bytes cannot be found by timing.
      const tokenOk = isValidVerifyToken(q['hub.verify_token'], deps.config.webhookVerifyToken);
      if (q['hub.mode'] !== 'subscribe' || !tokenOk || !q['hub.challenge']) {
        throw new AppError('WEBHOOK_VERIFY_FAILED', undefined, { field: 'hub.verify_token' });
      }
      return reply.type('text/plain').send(q['hub.challenge']);
    },
  );

  app.post(
    '/webhooks/whatsapp',
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      config: documented({
        body: WebhookBodyDoc,
        headers: Type.Object({
          'x-hub-signature-256': Type.String({
            description: 'sha256=<hex HMAC-SHA256 of the raw body with APP_SECRET>; missing or wrong: 401 WEBHOOK_SIGNATURE_INVALID, nothing stored',
            examples: ['sha256=6f1b0c3e5d0a4a449f0e2f3c1b1f6d7e6f1b0c3e5d0a4a449f0e2f3c1b1f6d7e'],
          }),
        }),
      }),
      schema: {
        tags: ['webhooks'],
        summary: 'Network events (statuses, template and phone quality updates), signed with the app secret',
        description:
          'Meta posts message statuses, template review/category/components/quality updates and phone quality updates here. ' +
          'The X-Hub-Signature-256 header is checked over the raw body before anything is parsed; the event is answered once it is stored ' +
          '(applied in the same transaction when the database keeps up, else applied after, in order). No bearer token: the signature is the authentication.',
        security: [],
        headers: Type.Object({ 'x-hub-signature-256': Type.Optional(Type.String()) }),
        response: {
          200: Type.Object({ success: Type.Literal(true), event_id: Type.String() }, { examples: [{ success: true, event_id: '6740f1a2c3d4e5f60123aa55' }] }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['x-hub-signature-256'];
      if (!isValidWebhookSignature(raw, typeof signature === 'string' ? signature : undefined, deps.config.appSecret)) {
        deps.webhookInbox.rejected += 1;
        request.log.warn({ bytes: raw.length }, 'webhook refused: missing or wrong signature');
        throw new AppError('WEBHOOK_SIGNATURE_INVALID', undefined, { field: 'x-hub-signature-256' });
      }
      const text = raw.toString('utf8');
      // Measured before parsing: the inbox and its handlers walk the parsed body recursively.
      if (jsonNestsDeeperThan(text)) throw new AppError('VALIDATION_FAILED', TOO_DEEP_MESSAGE, { field: 'body' });
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new AppError('INVALID_JSON', undefined, { field: 'body' });
      }
      if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { entry?: unknown }).entry)) {
        throw new AppError('VALIDATION_FAILED', 'A webhook body is an object with an entry array.', { field: 'entry' });
      }
      const eventId = await deps.webhookInbox.receive(text, parsed);
      return { success: true as const, event_id: eventId };
    },
  );
};
