/** Schemas for channel phone status (both families) and the channel list. */
import { Type } from 'typebox';
import type { ChannelRow } from '../../store/channels.js';

const common = {
  status: Type.String({ description: 'Status of the phone number (CONNECTED, FLAGGED, RESTRICTED, ...)' }),
  id: Type.String({ description: 'Phone number id = channel_id' }),
  verified_name: Type.String(),
  display_phone_number: Type.String(),
  messaging_limit_tier: Type.Union([Type.String(), Type.Null()], { description: 'TIER_50 ... TIER_UNLIMITED' }),
};

/** Family A phone status: quality in `quality_score`. */
export const PhoneStatusA = Type.Object({ ...common, quality_score: Type.String() });
/** Family B phone status: quality in `quality_rating`. */
export const PhoneStatusB = Type.Object({ ...common, quality_rating: Type.String() });

/** A channel in `GET /api/v1/channels`. */
export const ChannelItem = Type.Object({
  ...common,
  quality_rating: Type.String(),
  whatsapp_account_id: Type.String(),
  throughput_mps: Type.Integer(),
  refreshed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

/** Query with a required channel_id. */
export const ChannelQuery = Type.Object(
  { channel_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

function base(row: ChannelRow) {
  return {
    status: row.status,
    id: row.id,
    verified_name: row.verified_name,
    display_phone_number: row.display_phone_number,
    messaging_limit_tier: row.messaging_limit_tier,
  };
}

/** Family A view of a channel row. */
export function toPhoneStatusA(row: ChannelRow) {
  return { ...base(row), quality_score: row.quality_rating };
}

/** Family B view of a channel row. */
export function toPhoneStatusB(row: ChannelRow) {
  return { ...base(row), quality_rating: row.quality_rating };
}

/** Channel list view. */
export function toChannelItem(row: ChannelRow) {
  return {
    ...toPhoneStatusB(row),
    whatsapp_account_id: row.waba_id,
    throughput_mps: row.throughput_mps,
    refreshed_at: row.refreshed_at ? row.refreshed_at.toISOString() : null,
  };
}
