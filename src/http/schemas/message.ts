/** Schemas for the single send and the message lookup. */
import { Type } from 'typebox';
import { MESSAGE_STATUSES } from '../../domain/message-states.js';
import type { MessageRow } from '../../store/message-inserts.js';
import { docSchema, WEBHOOK_RESPONSE_DOC } from '../openapi/doc-only.js';
import { EX, SINGLE_SEND, SINGLE_SEND_BSUID } from '../openapi/examples.js';
import { marketOf, pricingView } from '../../engine/pricing.js';
import { PricingViewSchema } from './pricing.js';

const nullableTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

/** A send component as clients send it; the template rules check the rest and name the exact path. */
export const SendComponentIn = Type.Object(
  { type: Type.String({ minLength: 1, maxLength: 20, description: 'BODY, HEADER, BUTTONS, CAROUSEL (or the Cloud API forms)' }) },
  // The document shows the concrete entry shapes (openapi/send-components.ts); validation stays here and in the send rules.
  { additionalProperties: true, ...docSchema('SendComponent') },
);

/** `POST /agent-app/message-template/single-messagev2` body. */
export const SingleSendBody = Type.Object(
  {
    channel_id: Type.String({ minLength: 1, maxLength: 64 }),
    phone_number: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'digits with country code; this or `recipient` (or both) is required' })),
    recipient: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 80,
        description:
          "addition: the customer's business-scoped user id (BSUID, `CC.<id>`, or a parent BSUID `CC.ENT.<id>`), for a customer known only by it; " +
          'when phone_number is given too, the message goes to the phone number (as on the network) and the record keeps both',
        examples: ['US.13491208655302741918'],
      }),
    ),
    message_template_id: Type.String({ minLength: 1, maxLength: 64 }),
    full_name: Type.Optional(Type.String({ maxLength: 256 })),
    message_template: Type.Optional(Type.Array(SendComponentIn, { maxItems: 20, description: 'the parameters, by template part; leave out for a template without variables' })),
  },
  { additionalProperties: false, examples: [SINGLE_SEND, SINGLE_SEND_BSUID] },
);

/** `POST /api/v1/messages` body. */
export const MessageLookupBody = Type.Object(
  { message_ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false, examples: [{ message_ids: [EX.messageId] }] },
);

/** `GET /api/v1/messages` query: a recipient's messages, newest first (added beyond the interface). */
export const MessageSearchQuery = Type.Object(
  {
    phone_number: Type.Optional(
      Type.String({ minLength: 1, maxLength: 32, description: 'the recipient: digits with the country code (a leading + or 00, spaces, dots, dashes are accepted); this or user_id' }),
    ),
    user_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 80,
        description: "the recipient's BSUID (`CC.<id>` or a parent BSUID `CC.ENT.<id>`); this or phone_number",
        examples: ['US.13491208655302741918'],
      }),
    ),
    limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'messages per page, 1-100 (default 20)' })),
    after: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'the _id of the last message of the previous page (its `next`)' })),
  },
  {
    additionalProperties: false,
    examples: [{ phone_number: '905551234567', limit: '20', after: '6a1f0c2e9b3d4a5f6e7d8c9b' }, { user_id: 'US.13491208655302741918' }],
  },
);

/** The recipient's BSUID fields of a record or report row (additions; null when the network gave none). */
export const RECIPIENT_FIELDS = {
  user_id: Type.Union([Type.String(), Type.Null()], {
    description: "addition: the recipient's business-scoped user id (BSUID), given with the send or reported by the network; null when unknown",
  }),
  parent_user_id: Type.Union([Type.String(), Type.Null()], { description: 'addition: the parent BSUID the network reported (linked business portfolios); null when none' }),
  username: Type.Union([Type.String(), Type.Null()], { description: "addition: the recipient's WhatsApp username, when the network showed one" }),
};

/** A message record (interface fields first; the time and error fields of the report detail follow). */
export const MessageRecord = Type.Object({
  _id: Type.String(),
  status: Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s))),
  company_id: Type.String(),
  phone_number: Type.Union([Type.String(), Type.Null()], { description: 'the customer number (E.164); null for a message sent to a BSUID whose phone number is not known' }),
  ...RECIPIENT_FIELDS,
  from_number: Type.String(),
  full_name: Type.Union([Type.String(), Type.Null()]),
  message_template_id: Type.String(),
  whatsapp_account_id: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  __v: Type.Integer(),
  ext_id: Type.Union([Type.String(), Type.Null()]),
  webhook_response: Type.Any(WEBHOOK_RESPONSE_DOC),
  send_wizard_id: Type.Union([Type.String(), Type.Null()]),
  backend_sended_time: nullableTime,
  sended_time: nullableTime,
  delivered_time: nullableTime,
  seen_time: nullableTime,
  failed_time: nullableTime,
  error_message: Type.Union([Type.String(), Type.Null()]),
  error_message_detail: Type.Union([Type.String(), Type.Null()]),
  market: Type.Union([Type.String(), Type.Null()], { description: "addition: the recipient's country (ISO 3166-1 alpha-2), null when unknown" }),
  pricing: PricingViewSchema,
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The BSUID fields of a stored row. */
export function recipientFields(r: { user_id?: unknown; parent_user_id?: unknown; username?: unknown }) {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return { user_id: text(r.user_id), parent_user_id: text(r.parent_user_id), username: text(r.username) };
}

/** The API view of a message row; `fromNumber` is the channel's display number. */
export function toMessageRecord(row: MessageRow, fromNumber: string) {
  return {
    _id: row.id,
    status: row.status,
    company_id: row.company_id,
    phone_number: row.phone_number,
    ...recipientFields(row),
    from_number: fromNumber,
    full_name: row.full_name,
    message_template_id: row.template_id,
    whatsapp_account_id: row.waba_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    __v: row.version,
    ext_id: row.ext_id,
    webhook_response: row.webhook_response ?? null,
    send_wizard_id: row.send_wizard_id,
    backend_sended_time: iso(row.backend_sended_time),
    sended_time: iso(row.sended_time),
    delivered_time: iso(row.delivered_time),
    seen_time: iso(row.seen_time),
    failed_time: iso(row.failed_time),
    error_message: row.error_message,
    error_message_detail: row.error_message_detail,
    market: marketOf(row),
    pricing: pricingView(row),
  };
}
