/** Phone numbers: `GET /{phone-number-id}` (via the node route) and `GET /{waba}/phone_numbers`. */
import type { FastifyInstance } from 'fastify';
import { SIM_WABA_ID } from '../constants.js';
import { type GraphParams, type SimContext, pickFields, queryOf } from '../context.js';
import { objectNotFound } from '../graph-errors.js';
import type { SimChannel, SimWorld } from '../world.js';

/** Default fields of a phone number node (as the real API). */
export const PHONE_DEFAULT_FIELDS = ['id', 'display_phone_number', 'verified_name', 'quality_rating', 'code_verification_status'];

/**
 * Every readable field of a phone number. A field the number does not send (the deprecated
 * `messaging_limit_tier` on most numbers) is present as undefined: asking for it is not an error, it is left out.
 */
export function phoneNumberNode(world: SimWorld, ch: SimChannel): Record<string, unknown> {
  const mps = world.mpsOf(ch.id);
  return {
    id: ch.id,
    display_phone_number: ch.displayPhoneNumber,
    verified_name: ch.verifiedName,
    status: ch.status,
    quality_rating: ch.qualityRating,
    whatsapp_business_manager_messaging_limit: ch.messagingLimit ?? undefined,
    messaging_limit_tier: ch.legacyMessagingLimitTier ?? undefined,
    throughput: { level: mps !== null && mps < 1000 ? 'STANDARD' : 'HIGH' },
    code_verification_status: 'VERIFIED',
    name_status: 'APPROVED',
    new_name_status: 'NONE',
    platform_type: 'CLOUD_API',
    account_mode: ch.accountMode,
    is_official_business_account: false,
    is_pin_enabled: true,
    eligibility_for_api_business_global_search: 'NON_ELIGIBLE_VERIFIED_LEVEL',
    search_visibility: 'NON_VISIBLE',
    country_dial_code: '1',
  };
}

/** `GET /{phone-number-id}?fields=`. */
export function readPhoneNumber(world: SimWorld, ch: SimChannel, fields: string | undefined): Record<string, unknown> {
  return pickFields(phoneNumberNode(world, ch), fields, PHONE_DEFAULT_FIELDS, 'WhatsAppBusinessPhoneNumber');
}

/** `GET /{waba}` (the account itself). */
export function readWaba(fields: string | undefined): Record<string, unknown> {
  const node = { id: SIM_WABA_ID, name: 'Demo Company', currency: 'USD', timezone_id: '1', message_template_namespace: 'sim_demo_namespace' };
  return pickFields(node, fields, ['id', 'name'], 'WhatsAppBusinessAccount');
}

/** Registers `GET /{waba}/phone_numbers`. */
export function registerPhoneNumberRoutes(app: FastifyInstance, { world }: SimContext): void {
  app.get<{ Params: GraphParams }>('/:ver/:id/phone_numbers', async (req) => {
    if (req.params.id !== SIM_WABA_ID) throw objectNotFound('get', req.params.id);
    const fields = queryOf(req).fields;
    const data = [...world.channels.values()].map((ch) => readPhoneNumber(world, ch, fields));
    const first = Buffer.from(data[0].id as string).toString('base64url');
    const last = Buffer.from(data[data.length - 1].id as string).toString('base64url');
    return { data, paging: { cursors: { before: first, after: last } } };
  });
}
