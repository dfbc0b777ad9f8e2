/**
 * Admin and inspection (`/_sim/...`, no token): change channels and templates (with their webhooks), fault
 * knobs, the clock, the webhook target; read what each phone received and the counters; reset the world.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.js';
import { invalidParameter } from '../graph-errors.js';
import { phoneNumberNode } from './phone-numbers.js';
import { waIdOf } from './messages.js';
import type { FaultKnobs, SimTimings } from '../world.js';

type Body = Record<string, unknown>;

function bodyOf(body: unknown): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidParameter('The body must be a JSON object.');
  return body as Body;
}

function optionalString(b: Body, key: string): string | undefined {
  const v = b[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^[A-Z0-9_]+$/.test(v)) throw invalidParameter(`${key} must be an upper-case name`);
  return v;
}

/** A tier field of a channel change: a name, null (the number stops sending the field) or absent (undefined). */
function nullableTier(b: Body, key: string): string | null | undefined {
  if (b[key] === null) return null;
  const v = optionalString(b, key);
  if (v !== undefined && !/^TIER_/.test(v)) throw invalidParameter(`${key} must be a TIER_… name or null`);
  return v;
}

/** Registers the admin routes. */
export function registerAdminRoutes(app: FastifyInstance, ctx: SimContext, setTarget: (url: string | null, secret: string) => void): void {
  const { world, events, sender, scheduler } = ctx;

  app.get('/_sim/world', async () => ({
    channels: [...world.channels.values()].map((ch) => ({ ...phoneNumberNode(world, ch), mps: world.mpsOf(ch.id), webhook_display_phone_number: ch.webhookDisplayNumber })),
    templates: [...world.templates.values()].map((t) => ({ id: t.id, name: t.name, language: t.language, status: t.status, category: t.category })),
  }));

  // One more number in the WABA (CONNECTED, GREEN, TIER_UNLIMITED), e.g. for a many-channel benchmark; gone on reset.
  app.post('/_sim/channels', async (req, reply) => {
    const b = bodyOf(req.body);
    if (typeof b.id !== 'string' || !/^\d{1,32}$/.test(b.id)) throw invalidParameter('id must be a phone number id (digits)');
    if (world.channels.has(b.id)) return reply.code(409).send(invalidParameter(`Channel ${b.id} exists`).body());
    const digits = b.id.slice(-10).padStart(10, '0');
    world.channels.set(b.id, {
      id: b.id, displayPhoneNumber: `+1 ${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`, webhookDisplayNumber: `1${digits}`,
      verifiedName: typeof b.verified_name === 'string' ? b.verified_name : `Demo ${b.id}`, status: 'CONNECTED', qualityRating: 'GREEN',
      messagingLimit: 'TIER_UNLIMITED', legacyMessagingLimitTier: null, accountMode: 'LIVE', bucket: { tokens: Infinity, at: Date.now() },
    });
    return { channel: phoneNumberNode(world, world.channels.get(b.id)!) };
  });

  app.post<{ Params: { pnid: string } }>('/_sim/channels/:pnid', async (req, reply) => {
    const ch = world.channels.get(req.params.pnid);
    if (!ch) return reply.code(404).send(invalidParameter(`No simulated channel ${req.params.pnid}`).body());
    const b = bodyOf(req.body);
    const status = optionalString(b, 'status');
    const quality = optionalString(b, 'quality_rating');
    const limit = nullableTier(b, 'whatsapp_business_manager_messaging_limit');
    const legacy = nullableTier(b, 'messaging_limit_tier');
    const mode = optionalString(b, 'account_mode');
    if (mode !== undefined && mode !== 'LIVE' && mode !== 'SANDBOX') throw invalidParameter('account_mode must be LIVE or SANDBOX');
    if (b.mps !== undefined && b.mps !== null && !(typeof b.mps === 'number' && b.mps > 0)) throw invalidParameter('mps must be a positive number or null');
    const before = { ...ch };
    if (status) ch.status = status;
    if (quality) ch.qualityRating = quality;
    if (limit !== undefined) ch.messagingLimit = limit;
    if (legacy !== undefined) ch.legacyMessagingLimitTier = legacy;
    if (mode) ch.accountMode = mode;
    if (b.mps !== undefined) world.limits.channelMps[ch.id] = b.mps as number | null;
    const emitted = events.channelChanged(before, ch);
    return { channel: phoneNumberNode(world, ch), events: emitted };
  });

  app.post<{ Params: { id: string } }>('/_sim/templates/:id', async (req, reply) => {
    const t = world.templates.get(req.params.id);
    if (!t) return reply.code(404).send(invalidParameter(`No template ${req.params.id}`).body());
    const b = bodyOf(req.body);
    const status = optionalString(b, 'status');
    if (!status) throw invalidParameter('status is required');
    t.status = status;
    t.rejectedReason = optionalString(b, 'reason') ?? (status === 'REJECTED' ? 'INVALID_FORMAT' : 'NONE');
    events.templateStatusChanged(t);
    return { id: t.id, status: t.status };
  });

  app.get('/_sim/faults', async () => world.faults);
  app.post('/_sim/faults', async (req) => {
    const b = bodyOf(req.body);
    const next: FaultKnobs = { ...world.faults };
    for (const [key, value] of Object.entries(b)) {
      if (!(key in next)) throw invalidParameter(`Unknown fault knob ${key}`);
      if (typeof value !== 'number' || value < 0 || (key.endsWith('Rate') && value > 1)) throw invalidParameter(`${key} must be a number (rates 0-1)`);
      next[key as keyof FaultKnobs] = value;
    }
    world.faults = next;
    return world.faults;
  });

  app.get('/_sim/limits', async () => ({ limits: world.limits, timings: world.timings }));
  app.post('/_sim/limits', async (req) => {
    const b = bodyOf(req.body);
    for (const [key, value] of Object.entries(b)) {
      if (key in world.timings) {
        if (typeof value !== 'number' || value < 0) throw invalidParameter(`${key} must be a non-negative number`);
        world.timings[key as keyof SimTimings] = value;
      } else if (key === 'contactsCheck' || key === 'marketingMessagesOnboarded') {
        if (typeof value !== 'boolean') throw invalidParameter(`${key} must be a boolean`);
        world.limits[key] = value;
      } else if (['throughputMps', 'pairRateBurst', 'pairRateWindowMs', 'templateCreationsPerHour', 'maxTemplates'].includes(key)) {
        const nullable = key === 'throughputMps' || key === 'pairRateBurst';
        if (!((typeof value === 'number' && value > 0) || (nullable && value === null))) throw invalidParameter(`${key} must be a positive number${nullable ? ' or null' : ''}`);
        (world.limits as unknown as Record<string, unknown>)[key] = value;
      } else {
        throw invalidParameter(`Unknown limit or timing ${key}`);
      }
    }
    return { limits: world.limits, timings: world.timings };
  });

  app.post('/_sim/clock', async (req) => {
    const advance = bodyOf(req.body).advance_ms;
    if (typeof advance !== 'number' || advance < 0) throw invalidParameter('advance_ms must be a non-negative number');
    world.clockOffsetMs += advance;
    return { now: new Date(world.now()).toISOString() };
  });

  app.post('/_sim/webhook-target', async (req) => {
    const b = bodyOf(req.body);
    if (b.url !== null && typeof b.url !== 'string') throw invalidParameter('url must be a string or null');
    setTarget(b.url as string | null, typeof b.app_secret === 'string' ? b.app_secret : '');
    return { url: b.url };
  });

  app.get('/_sim/received', async (req) => {
    const { to, user_id: userId } = req.query as { to?: string; user_id?: string };
    if (userId !== undefined) {
      // By BSUID: the user's own log (a BSUID nobody has keeps the sends made to it).
      const key = world.users.byUserId(userId)?.waId ?? userId;
      return { to: key, messages: world.received.get(key) ?? [] };
    }
    if (to === undefined) {
      let messages = 0;
      for (const list of world.received.values()) messages += list.length;
      return { recipients: world.received.size, messages };
    }
    const waId = waIdOf(to);
    if (!waId) throw invalidParameter('to must be a phone number');
    return { to: waId, messages: world.received.get(waId) ?? [] };
  });

  app.get('/_sim/stats', async () => ({ ...world.stats, webhooks_pending: sender.pending, scheduled_events: scheduler.size }));

  app.post('/_sim/reset', async () => {
    scheduler.clear();
    sender.discard();
    world.reset();
    return { reset: true };
  });
}
