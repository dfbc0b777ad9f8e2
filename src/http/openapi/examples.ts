/**
 * Example values for the OpenAPI document (TypeBox `examples` on the route schemas). They are checked against
 * their schemas by test/http/openapi-document.test.ts, so they cannot drift from what the routes answer.
 */
import { EXAMPLE_COMPONENTS } from './template-components.js';

export const EX = {
  channelId: '110000000000001',
  wabaId: '100000000000001',
  templateId: '6740f1a2c3d4e5f601234567',
  messageId: '6740f1a2c3d4e5f60123abcd',
  bulkSendId: '6740f1a2c3d4e5f60123ef01',
  companyId: '64656d6f0000000000000001',
  traceId: '7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e',
  time: '2026-11-23T15:04:05.000Z',
} as const;

/** Family B success envelope fields around `fields`. */
export function exB<T extends object>(fields: T) {
  return { success: true as const, message: '', status_code: 200, trace_id: EX.traceId, errors: [] as never[], ...fields };
}

/** Phone status fields common to both families. */
const phone = {
  status: 'CONNECTED',
  id: EX.channelId,
  verified_name: 'Demo Company',
  display_phone_number: '+1 555-010-0001',
  messaging_limit_tier: 'TIER_250',
};
export const PHONE_STATUS_A = { ...phone, quality_score: 'GREEN' };
export const PHONE_STATUS_B = { ...phone, quality_rating: 'GREEN' };
export const CHANNEL_ITEM = {
  ...PHONE_STATUS_B,
  whatsapp_account_id: EX.wabaId,
  throughput_mps: 80,
  throughput_level: 'STANDARD',
  throughput_override_mps: null,
  auth_error: null,
  refreshed_at: EX.time,
  status_webhooks_stale_since: null,
  tier_limit: 250,
  tier_used_24h: 12,
  tier_left_24h: 238,
  tier_window_frees_at: '2026-11-24T09:12:00.000Z',
  blocked_reason: null,
  marketing_messages: { enabled: false, disabled_reason: null, disabled_at: null },
};

export const TEMPLATE_VIEW = {
  id: EX.templateId,
  name: 'summer_sale',
  language: 'en_US',
  category: 'MARKETING',
  status: 'APPROVED',
  components: EXAMPLE_COMPONENTS,
  rejected_reason: null,
  quality_score: 'GREEN',
  channel_id: EX.channelId,
  created_at: EX.time,
  updated_at: EX.time,
};

export const CREATE_TEMPLATE_A = {
  name: 'summer_sale',
  category: 'MARKETING',
  language: 'en_US',
  components: EXAMPLE_COMPONENTS,
  allow_category_change: false,
  channel_id: EX.channelId,
};

export const CREATE_TEMPLATE_V2 = {
  message_template: {
    name: 'summer_carousel',
    category: 'MARKETING',
    language: 'en_US',
    components: [
      { type: 'body', text: 'Hi {{1}}, our summer picks:', example: { body_text: [['Ayse']] } },
      {
        type: 'carousel',
        cards: [0, 1].map(() => ({
          components: [
            { type: 'header', format: 'image', example: { header_handle: ['4::aW1hZ2UvcG5n:ARbExampleHandle'] } },
            { type: 'body', text: 'Use {{1}} at checkout.', example: { body_text: [['SAVE10']] } },
            { type: 'buttons', buttons: [{ type: 'url', text: 'Shop', url: 'https://shop.example.com/{{1}}', example: ['https://shop.example.com/summer'] }] },
          ],
        })),
      },
    ],
  },
  channel_id: EX.channelId,
  media_names: { '4::aW1hZ2UvcG5n:ARbExampleHandle': 'summer.png' },
};

export const CREATE_TEMPLATE_B = { ...CREATE_TEMPLATE_A, name: 'summer_sale_b' };

export const SINGLE_SEND = {
  channel_id: EX.channelId,
  phone_number: '905551234567',
  message_template_id: EX.templateId,
  full_name: 'Ayse Yilmaz',
  message_template: [
    { type: 'BODY', parameters: [{ type: 'text', text: 'Ayse' }, { type: 'text', text: 'SAVE10' }] },
    { type: 'BUTTONS', buttons: [{ index: 0, parameters: [{ type: 'text', text: 'summer' }] }] },
  ],
};

/** A single send to a customer known only by the BSUID the network gave. */
export const SINGLE_SEND_BSUID = (({ phone_number: _phone, ...rest }) => ({ ...rest, recipient: 'TR.13491208655302741918' }))(SINGLE_SEND);

export const MESSAGE_RECORD = {
  _id: EX.messageId,
  status: 'BACKEND_SENT',
  company_id: EX.companyId,
  phone_number: '905551234567',
  user_id: 'TR.13491208655302741918',
  parent_user_id: null,
  username: null,
  from_number: '+1 555-010-0001',
  full_name: 'Ayse Yilmaz',
  message_template_id: EX.templateId,
  whatsapp_account_id: EX.wabaId,
  created_at: EX.time,
  updated_at: '2026-11-23T15:04:07.000Z',
  __v: 4,
  ext_id: 'wamid.HBgMOTA1NTUxMjM0NTY3FQIAERgSQUJDREVGMDEyMzQ1Njc4OQA=',
  webhook_response: { id: 'wamid.HBgMOTA1NTUxMjM0NTY3FQIAERgSQUJDREVGMDEyMzQ1Njc4OQA=', status: 'delivered', timestamp: '1795446247', recipient_id: '905551234567' },
  send_wizard_id: null,
  backend_sended_time: '2026-11-23T15:04:05.500Z',
  sended_time: '2026-11-23T15:04:06.000Z',
  delivered_time: '2026-11-23T15:04:07.000Z',
  seen_time: null,
  failed_time: null,
  error_message: null,
  error_message_detail: null,
  market: 'TR',
  pricing: { category: 'utility', type: 'regular', billable: true, pricing_model: 'PMP' },
};

export const START_V1 = {
  message_template_id: EX.templateId,
  rows: [
    { id: 1, phone_number: '905551234567', full_name: 'Ayse Yilmaz', params: ['Ayse', 'SAVE10'], url_button_param: 'summer' },
    { id: 2, phone_number: '905551234568', full_name: 'Mehmet Demir', params: ['Mehmet', 'SAVE20'], url_button_param: 'autumn' },
  ],
  total_time: 60,
  channel_id: EX.channelId,
};

export const START_V2 = {
  message_template_id: EX.templateId,
  rows: [
    [1, '905551234567', 'Ayse', 'SAVE10', 'summer'],
    [2, '905551234568', 'Mehmet', 'SAVE20', 'autumn'],
  ],
  total_time: 60,
  channel_id: EX.channelId,
  param_headers: ['id', 'phone_number', 'BODY.1', 'BODY.2', 'BUTTONS.0'],
};

export const LIST_ITEM = {
  name: 'summer_sale',
  send_wizard_id: EX.bulkSendId,
  status: 'COMPLETED',
  from_number: '+1 555-010-0001',
  summary: 2,
  waiting: 0,
  queued: 0,
  processed_count: 2,
  awaiting_backend_count: 0,
  failed_count: 0,
  delivered_count: 2,
  sent_count: 2,
  seen_count: 1,
  created_at: 1795446245000,
  has_button: true,
  cancelled_count: 0,
  cancelling_count: 0,
  duplicate_count: 0,
  total_time: 60,
  paused_reason: null,
  message_template_id: EX.templateId,
  channel_id: EX.channelId,
  scheduled_at: null,
  retry_of: null,
  send_name: 'Summer sale – VIP customers',
  skipped_count: 0,
  cost: {
    currency: 'USD', estimated_cost: 0.0, complete: false, billable_count: 2, unknown_price_count: 2,
    by_market: [{ market: 'TR', category: 'marketing', billable_count: 2, price: null, cost: null }],
    rate_card_effective_date: '2025-07-01', rate_card_source: 'default', note: "Estimated at Meta's list price per delivered message; not an invoice.",
  },
  allowed_actions: [],
};

export const REPORT_ITEM = {
  row: 1,
  row_id: 1,
  message_id: EX.messageId,
  phone_number: '905551234567',
  user_id: 'TR.13491208655302741918',
  parent_user_id: null,
  username: null,
  full_name: 'Ayse Yilmaz',
  status: 'BACKEND_SEEN',
  backend_sended_time: '2026-11-23T15:04:05.500Z',
  sended_time: '2026-11-23T15:04:06.000Z',
  delivered_time: '2026-11-23T15:04:07.000Z',
  seen_time: '2026-11-23T15:05:00.000Z',
  market: 'TR',
  pricing: { category: 'marketing', type: 'regular', billable: true, pricing_model: 'PMP' },
  webhook_response: { id: 'wamid.HBgMOTA1NTUxMjM0NTY3FQIAERgSQUJDREVGMDEyMzQ1Njc4OQA=', status: 'read', timestamp: '1795446300', recipient_id: '905551234567' },
};
