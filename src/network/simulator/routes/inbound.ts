/**
 * `POST /_sim/inbound` (no token): a customer writes to a channel. The simulator posts the signed `messages`
 * webhook in Meta's inbound shape (`value.messages[]` with `from`, `id`, `timestamp`, `type`, `text.body`, plus
 * `metadata.phone_number_id` and `contacts[]`), e.g. a STOP reply for opt-out tests and rehearsals.
 * Body: `{from, text, phone_number_id?, type?: "text"|"button", name?}`; answers `{wamid, phone_number_id}`.
 */
import type { FastifyInstance } from 'fastify';
import { SIM_CHANNEL_IDS } from '../constants.js';
import type { SimContext } from '../context.js';
import { invalidParameter } from '../graph-errors.js';
import { waIdOf } from './messages.js';

/** Registers the route. */
export function registerInboundRoutes(app: FastifyInstance, { world, events }: SimContext): void {
  app.post('/_sim/inbound', async (req, reply) => {
    const b = req.body;
    if (typeof b !== 'object' || b === null || Array.isArray(b)) throw invalidParameter('The body must be a JSON object.');
    const { from, text, phone_number_id: pnid = SIM_CHANNEL_IDS.main, type = 'text', name = 'Customer' } = b as Record<string, unknown>;
    const waId = waIdOf(from);
    if (!waId) throw invalidParameter('from must be the customer number (digits with country code)');
    if (typeof text !== 'string' || text.length === 0 || text.length > 4096) throw invalidParameter('text must be a string of 1-4096 characters');
    if (type !== 'text' && type !== 'button') throw invalidParameter('type must be text or button');
    if (typeof name !== 'string') throw invalidParameter('name must be a string');
    const channel = typeof pnid === 'string' ? world.channels.get(pnid) : undefined;
    if (!channel) return reply.code(404).send(invalidParameter(`No simulated channel ${String(pnid)}`).body());
    const wamid = events.inboundMessage(channel, waId, text, type, name);
    return { wamid, phone_number_id: channel.id };
  });
}
