/**
 * Webhooks in: `GET /webhooks/whatsapp` answers the verification handshake; `POST` checks the
 * `X-Hub-Signature-256` HMAC of the raw body in constant time before anything is parsed, then stores the
 * event and answers 200 at once; the inbox applies it after (store first, apply after).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { isValidVerifyToken, isValidWebhookSignature } from '../../domain/webhook-signature.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES } from '../envelope.js';

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
      schema: {
        tags: ['webhooks'],
        summary: 'Verification handshake (hub.mode=subscribe, hub.verify_token, hub.challenge)',
        querystring: Type.Object({
          'hub.mode': Type.Optional(Type.String()),
          'hub.verify_token': Type.Optional(Type.String()),
          'hub.challenge': Type.Optional(Type.String()),
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
      schema: {
        tags: ['webhooks'],
        summary: 'Network events (statuses, template and phone quality updates), signed with the app secret',
        headers: Type.Object({ 'x-hub-signature-256': Type.Optional(Type.String()) }),
        response: { 200: Type.Object({ success: Type.Literal(true), event_id: Type.String() }), ...ERROR_RESPONSES },
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
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new AppError('INVALID_JSON', undefined, { field: 'body' });
      }
      if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { entry?: unknown }).entry)) {
        throw new AppError('VALIDATION_FAILED', 'A webhook body is an object with an entry array.', { field: 'entry' });
      }
      const eventId = await deps.webhookInbox.receive(text);
      return { success: true as const, event_id: eventId };
    },
  );
};
