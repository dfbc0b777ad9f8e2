/**
 * The simulated users (`/_sim/users`, no token; users.ts): read a user's ids by number or BSUID, give a user a
 * username or take it away, change a user's BSUID (`rotate`: posts the `user_changed_user_id` system message, or with
 * `{"as":"user_id_update"}` the `user_id_update` field), stop or resume marketing messages (`preferences`: posts
 * `user_preferences`), and the knobs (`usernameShare`, `parentUserIds`).
 */
import type { FastifyInstance } from 'fastify';
import { SIM_CHANNEL_IDS } from '../constants.js';
import type { SimContext } from '../context.js';
import { invalidParameter } from '../graph-errors.js';
import type { SimUser } from '../users.js';
import { waIdOf } from './messages.js';

/** A user as the admin routes show it (the names webhooks use). */
function view(user: SimUser) {
  return { wa_id: user.waId, user_id: user.userId, parent_user_id: user.parentUserId, username: user.username };
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidParameter('The body must be a JSON object.');
  return body as Record<string, unknown>;
}

/** Registers the routes. */
export function registerUserRoutes(app: FastifyInstance, { world, events }: SimContext): void {
  const numberOf = (text: string) => {
    const waId = waIdOf(text);
    if (!waId) throw invalidParameter('the user is named by a phone number (digits with country code)');
    return waId;
  };

  app.get('/_sim/users', async () => world.users.knobs);
  app.post('/_sim/users', async (req) => {
    const b = objectBody(req.body);
    for (const [key, value] of Object.entries(b)) {
      if (key === 'usernameShare') {
        if (typeof value !== 'number' || value < 0 || value > 1) throw invalidParameter('usernameShare must be a number from 0 to 1');
        world.users.knobs.usernameShare = value;
      } else if (key === 'parentUserIds') {
        if (typeof value !== 'boolean') throw invalidParameter('parentUserIds must be a boolean');
        world.users.knobs.parentUserIds = value;
      } else {
        throw invalidParameter(`Unknown user knob ${key}`);
      }
    }
    return world.users.knobs;
  });

  // By number, or by BSUID (`/_sim/users/US.1349…`): the user's ids as the business sees them.
  app.get<{ Params: { id: string } }>('/_sim/users/:id', async (req, reply) => {
    const byBsuid = world.users.byUserId(req.params.id);
    if (byBsuid) return view(byBsuid);
    if (/^[A-Z]{2}\./.test(req.params.id)) return reply.code(404).send(invalidParameter(`No user has ${req.params.id}`).body());
    return view(world.users.of(numberOf(req.params.id)));
  });

  app.post<{ Params: { phone: string } }>('/_sim/users/:phone', async (req) => {
    const b = objectBody(req.body);
    if (!('username' in b) || (b.username !== null && (typeof b.username !== 'string' || !/^[a-z0-9._]{3,35}$/.test(b.username)))) {
      throw invalidParameter('username must be null or 3-35 lower-case letters, digits, dots and underscores');
    }
    return view(world.users.setUsername(numberOf(req.params.phone), b.username as string | null));
  });

  app.post<{ Params: { phone: string } }>('/_sim/users/:phone/rotate', async (req, reply) => {
    const b = req.body === undefined ? {} : objectBody(req.body);
    const pnid = b.phone_number_id ?? SIM_CHANNEL_IDS.main;
    const channel = typeof pnid === 'string' ? world.channels.get(pnid) : undefined;
    if (!channel) return reply.code(404).send(invalidParameter(`No simulated channel ${String(pnid)}`).body());
    const as = b.as ?? 'system';
    if (as !== 'system' && as !== 'user_id_update') throw invalidParameter('as must be system or user_id_update');
    const { before, after } = world.users.rotate(numberOf(req.params.phone));
    if (as === 'user_id_update') {
      events.userIdUpdated(channel, before, after);
      return { previous_user_id: before.userId, ...view(after) };
    }
    const wamid = events.userIdChanged(channel, before, after);
    return { wamid, previous_user_id: before.userId, ...view(after) };
  });

  // The user stops or resumes marketing messages in WhatsApp: a `user_preferences` webhook.
  app.post<{ Params: { phone: string } }>('/_sim/users/:phone/preferences', async (req, reply) => {
    const b = objectBody(req.body);
    if (b.value !== 'stop' && b.value !== 'resume') throw invalidParameter('value must be stop or resume');
    if (b.name !== undefined && typeof b.name !== 'string') throw invalidParameter('name must be a string');
    const pnid = b.phone_number_id ?? SIM_CHANNEL_IDS.main;
    const channel = typeof pnid === 'string' ? world.channels.get(pnid) : undefined;
    if (!channel) return reply.code(404).send(invalidParameter(`No simulated channel ${String(pnid)}`).body());
    const user = world.users.of(numberOf(req.params.phone));
    events.userPreference(channel, user, b.value, typeof b.name === 'string' ? b.name : 'Customer');
    return { user_id: user.userId, value: b.value };
  });
}
