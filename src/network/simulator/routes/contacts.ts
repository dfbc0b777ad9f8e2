/**
 * The rehearsal-only On-Premises style number check `POST /v1/contacts` (research §8): `{blocking, contacts,
 * force_check}` → `{contacts:[{input, wa_id?, status}]}`. A number ending in 000 is not on WhatsApp (invalid).
 * It exists only while the `contactsCheck` limit is on (default off); otherwise the path is served as Graph
 * serves it (`v1` read as an object id: 400, code 100, subcode 33), see `rewriteGraphUrl` in server.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.js';
import { invalidParameter, objectNotFound } from '../graph-errors.js';
import { waIdOf } from './messages.js';

/** Registers `POST /v1/contacts`. */
export function registerContactRoutes(app: FastifyInstance, { world }: SimContext): void {
  app.post('/v1/contacts', async (req) => {
    // Switched off while this request was on its way: answer as Graph does.
    if (!world.limits.contactsCheck) throw objectNotFound('post', 'v1');
    const body = req.body as { blocking?: unknown; contacts?: unknown } | undefined;
    const contacts = body?.contacts;
    if (!Array.isArray(contacts) || contacts.length === 0 || contacts.some((c) => typeof c !== 'string')) {
      throw invalidParameter('Param contacts must be a non-empty array of phone numbers.');
    }
    if (body?.blocking !== undefined && body.blocking !== 'wait' && body.blocking !== 'no_wait') {
      throw invalidParameter('Param blocking must be "wait" or "no_wait".');
    }
    return {
      contacts: (contacts as string[]).map((input) => {
        const waId = waIdOf(input);
        if (!waId || waId.endsWith('000')) return { input, status: 'invalid' };
        return { input, status: 'valid', wa_id: waId };
      }),
    };
  });
}
