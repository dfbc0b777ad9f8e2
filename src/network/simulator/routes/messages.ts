/**
 * `POST /{phone-number-id}/messages` (template messages, to `to` or to a BSUID `recipient`) and `/marketing_messages`. Checks in the network's order: channel state,
 * throughput (130429), template approved in that language (132001), parameter counts (132000 / 132012),
 * parameter names for the template's parameter_format (100 / 132018),
 * pair rate (131056); then accepts and schedules the status webhooks of the recipient rules.
 *
 * Channel refusals (the real network's behaviour for these states is not documented): FLAGGED, RESTRICTED,
 * RATE_LIMITED or quality RED → 131048 "Spam rate limit hit" (400, the quality-restriction code); BANNED,
 * DELETED, MIGRATED, PENDING, UNVERIFIED → 133010 "Account not registered" (400). DISCONNECTED (a sandbox test
 * number) and other statuses send.
 */
import type { FastifyInstance } from 'fastify';
import { type GraphParams, type SimContext } from '../context.js';
import { GraphFailure, invalidParameter, MARKETING_MESSAGES_ERRORS, messagingError, objectNotFound, pairRateError, throughputError } from '../graph-errors.js';
import { checkSendParameters } from '../template-rules.js';
import type { SimChannel, SimReceived, SimWorld } from '../world.js';
import { outcomeOf } from '../events.js';
import { isBsuid } from '../../../domain/recipients.js';
import type { SimUser } from '../users.js';

/** Who a send goes to: the user (absent for a BSUID nobody has), the key its log and pair rate use, the BSUID used. */
interface SendTarget {
  key: string;
  user: SimUser | undefined;
  bsuid?: string;
}

interface SendBody {
  messaging_product?: unknown;
  to?: unknown;
  recipient?: unknown;
  type?: unknown;
  biz_opaque_callback_data?: unknown;
  template?: { name?: unknown; language?: { code?: unknown }; components?: unknown };
  /** Marketing Messages API only. */
  message_send_ttl_seconds?: unknown;
}

/** The edge a send comes through. */
type Endpoint = SimReceived['endpoint'];

/** The marketing TTL range (research §2: marketing templates, Marketing Messages API only). */
const MARKETING_TTL = { min: 43_200, max: 2_592_000 };

/** Digits of a phone number as the network reads `to` (null when it cannot be a number). */
export function waIdOf(to: unknown): string | null {
  if (typeof to !== 'string' || !/^[+\d\s().-]+$/.test(to)) return null;
  const digits = to.replace(/\D/g, '');
  return digits.length >= 7 && digits.length <= 15 ? digits : null;
}

/**
 * The channel-state check. Refused: a quality restriction (FLAGGED, RESTRICTED, RATE_LIMITED or RED quality)
 * with 131048, and a number that cannot send at all (BANNED, DELETED, MIGRATED, PENDING, UNVERIFIED) with 133010.
 * Any other status sends, as Meta lets it: the recorded sandbox test number is `status: DISCONNECTED,
 * account_mode: SANDBOX` and sends.
 */
function checkChannel(ch: SimChannel): void {
  if (['FLAGGED', 'RESTRICTED', 'RATE_LIMITED'].includes(ch.status) || ch.qualityRating === 'RED') {
    throw messagingError(131048, 'Spam rate limit hit',
      'Message failed to send because there are restrictions on how many messages can be sent from this phone number. This may be because too many previous messages were blocked or flagged as spam.');
  }
  if (['BANNED', 'DELETED', 'MIGRATED', 'PENDING', 'UNVERIFIED'].includes(ch.status)) {
    throw messagingError(133010, 'Account not registered', 'The phone number is not registered on the WhatsApp Business Platform.');
  }
}

/**
 * Who a send goes to: `to` (a phone number) wins when given, as on Graph; else `recipient`, a BSUID or parent BSUID
 * (research §9). A BSUID the network never handed out has no user behind it: the send is accepted and fails later
 * (131026), as a number that is not on WhatsApp does.
 */
function targetOf(world: SimWorld, b: SendBody): SendTarget {
  if (b.to !== undefined || b.recipient === undefined) {
    const waId = waIdOf(b.to);
    if (!waId) throw invalidParameter('The parameter to must be a phone number with its country code.');
    return { key: waId, user: world.users.of(waId) };
  }
  if (typeof b.recipient !== 'string' || !isBsuid(b.recipient)) {
    throw invalidParameter('The parameter recipient must be a business-scoped user ID (BSUID) or parent BSUID.');
  }
  const user = world.users.byUserId(b.recipient);
  return { key: user?.waId ?? b.recipient, user, bsuid: b.recipient };
}

function parseBody(world: SimWorld, body: unknown, endpoint: Endpoint): { b: SendBody; target: SendTarget; name: string; language: string } {
  if (typeof body !== 'object' || body === null) throw invalidParameter('The request body must be a JSON object.');
  const b = body as SendBody;
  if (b.messaging_product !== 'whatsapp') throw invalidParameter('The parameter messaging_product is required and must be "whatsapp".');
  if (endpoint === 'marketing_messages' && b.type !== 'template') throw invalidParameter('Message must be a template message.');
  const target = targetOf(world, b);
  if (b.type !== 'template') throw invalidParameter('The simulator accepts only template messages (type "template").');
  const ttl = b.message_send_ttl_seconds;
  if (ttl !== undefined && (endpoint !== 'marketing_messages' || !Number.isInteger(ttl) || (ttl as number) < MARKETING_TTL.min || (ttl as number) > MARKETING_TTL.max)) {
    throw invalidParameter(`message_send_ttl_seconds is an integer from ${MARKETING_TTL.min} to ${MARKETING_TTL.max}, on marketing_messages only.`);
  }
  const name = b.template?.name;
  const language = b.template?.language?.code;
  if (typeof name !== 'string' || typeof language !== 'string') throw invalidParameter('template.name and template.language.code are required.');
  const opaque = b.biz_opaque_callback_data;
  if (opaque !== undefined && (typeof opaque !== 'string' || opaque.length > 512)) {
    throw invalidParameter('biz_opaque_callback_data must be a string of at most 512 characters.');
  }
  return { b, target, name, language };
}

function accept(ctx: SimContext, ch: SimChannel, body: unknown, endpoint: Endpoint) {
  const { world } = ctx;
  checkChannel(ch);
  const { b, target, name, language } = parseBody(world, body, endpoint);
  const waId = target.key;
  if (endpoint === 'marketing_messages' && !world.limits.marketingMessagesOnboarded) throw MARKETING_MESSAGES_ERRORS.notOnboarded();
  if (!world.takeThroughputToken(ch)) {
    world.stats.refused_130429++;
    throw throughputError();
  }
  const template = [...world.templates.values()].find((t) => t.name === name && t.language === language && t.status === 'APPROVED');
  if (!template) {
    throw messagingError(132001, 'Template name does not exist in the translation', `template name (${name}) does not exist in ${language}`, 404);
  }
  if (endpoint === 'marketing_messages' && template.category !== 'MARKETING') throw MARKETING_MESSAGES_ERRORS.notMarketing();
  checkSendParameters(template.components, b.template?.components, '', template.parameterFormat);
  if (!world.takePairRate(ch.id, waId)) {
    world.stats.refused_131056++;
    throw pairRateError();
  }
  const entry: SimReceived = {
    wamid: world.nextWamid(waId),
    to: waId,
    phone_number_id: ch.id,
    template: { name, language },
    components: (b.template?.components as unknown[] | undefined) ?? [],
    accepted_at: new Date(world.now()).toISOString(),
    outcome: target.user ? outcomeOf(waId).outcome : 'failed',
    endpoint,
  };
  if (typeof b.biz_opaque_callback_data === 'string') entry.biz_opaque_callback_data = b.biz_opaque_callback_data;
  if (typeof b.message_send_ttl_seconds === 'number') entry.message_send_ttl_seconds = b.message_send_ttl_seconds;
  if (target.bsuid) entry.recipient = target.bsuid;
  world.recordReceived(entry);
  // Messages of the Marketing Messages API are priced as `marketing_lite` (Meta's MM Lite get-started page).
  ctx.events.messageAccepted(ch, entry, endpoint === 'marketing_messages' ? 'MARKETING_LITE' : template.category, target.user);
  // A send to a BSUID is answered with the BSUID (`user_id`), not a `wa_id` (research §9).
  const contact = target.bsuid ? { input: target.bsuid, user_id: target.bsuid } : { input: b.to as string, wa_id: waId };
  return {
    messaging_product: 'whatsapp',
    contacts: [contact],
    messages: [{ id: entry.wamid, message_status: 'accepted' }],
  };
}

/** Counts refusals other than the rate limits (those are counted where they happen). */
function countRefusal(world: SimWorld, err: unknown): void {
  if (err instanceof GraphFailure && err.error.code !== 130429 && err.error.code !== 131056) world.stats.refused_other++;
}

/**
 * Registers the messages edge and the Marketing Messages API's: the same body, which `/marketing_messages` takes only
 * for MARKETING templates (134100) of an onboarded WABA (134102), with an optional `message_send_ttl_seconds`.
 */
export function registerMessageRoutes(app: FastifyInstance, ctx: SimContext): void {
  for (const endpoint of ['messages', 'marketing_messages'] as const) {
    app.post<{ Params: GraphParams }>(`/:ver/:id/${endpoint}`, async (req) => {
      const ch = ctx.world.channels.get(req.params.id);
      if (!ch) throw objectNotFound('post', req.params.id);
      try {
        return accept(ctx, ch, req.body, endpoint);
      } catch (err) {
        countRefusal(ctx.world, err);
        throw err;
      }
    });
  }
}
