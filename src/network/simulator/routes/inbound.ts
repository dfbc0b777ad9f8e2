/**
 * `POST /_sim/inbound` (no token): a customer writes to a channel. The simulator posts the signed `messages`
 * webhook in Meta's inbound shape (`value.messages[]` with `from_user_id`, `from` unless the user has a username,
 * `id`, `timestamp`, `type`, plus `metadata.phone_number_id` and `contacts[]`), e.g. a STOP reply for opt-out tests
 * and rehearsals, or the answer to a REQUEST_CONTACT_INFO button.
 * Body: `{from, text, phone_number_id?, type?: "text"|"button"|"contact_request", name?}`; answers
 * `{wamid, phone_number_id, user_id, username}`.
 */
import type { FastifyInstance } from 'fastify';
import { SIM_CHANNEL_IDS } from '../constants.js';
import type { SimContext } from '../context.js';
import { invalidParameter } from '../graph-errors.js';
import { waIdOf } from './messages.js';

const KINDS = ['text', 'button', 'contact_request'] as const;

/** Registers the route. */
export function registerInboundRoutes(app: FastifyInstance, { world, events }: SimContext): void {
  app.post('/_sim/inbound', async (req, reply) => {
    const b = req.body;
    if (typeof b !== 'object' || b === null || Array.isArray(b)) throw invalidParameter('The body must be a JSON object.');
    const { from, text = '', phone_number_id: pnid = SIM_CHANNEL_IDS.main, type = 'text', name = 'Customer' } = b as Record<string, unknown>;
    const waId = waIdOf(from);
    if (!waId) throw invalidParameter('from must be the customer number (digits with country code)');
    const kind = KINDS.find((k) => k === type);
    if (!kind) throw invalidParameter(`type must be one of ${KINDS.join(', ')}`);
    if (typeof text !== 'string' || text.length > 4096 || (kind !== 'contact_request' && text.length === 0)) throw invalidParameter('text must be a string of 1-4096 characters');
    if (typeof name !== 'string') throw invalidParameter('name must be a string');
    const channel = typeof pnid === 'string' ? world.channels.get(pnid) : undefined;
    if (!channel) return reply.code(404).send(invalidParameter(`No simulated channel ${String(pnid)}`).body());
    const user = world.users.of(waId);
    const wamid = events.inboundMessage(channel, user, text, kind, name);
    return { wamid, phone_number_id: channel.id, user_id: user.userId, username: user.username };
  });
}
