/** Schemas of the client webhook endpoints and their delivery log (family B, added beyond the interface). */
import { Type, type Static } from 'typebox';
import { MESSAGE_STATUSES, REPORT_COUNTERS } from '../../domain/message-states.js';
import { EVENT_SUBSCRIPTIONS } from '../../domain/client-webhooks.js';
import { DELIVERY_STATES, type DeliveryRow } from '../../store/webhook-deliveries.js';
import type { WebhookEndpointRow } from '../../store/webhook-endpoints.js';

const nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const time = () => Type.String({ format: 'date-time' });

const EventName = Type.Union(EVENT_SUBSCRIPTIONS.map((e) => Type.Literal(e)), {
  description: '`message.status_changed`, `bulk_send.status_changed`, or `*` for every type (also types added later)',
});
const Events = Type.Array(EventName, { minItems: 1, maxItems: EVENT_SUBSCRIPTIONS.length, uniqueItems: true });
const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'absolute http(s) URL; no credentials, no fragment' });
const Description = Type.String({ maxLength: 256 });
const Secret = Type.String({ minLength: 16, maxLength: 256, description: '16-256 printable ASCII characters; generated (whsec_…) when absent' });

/** An endpoint as the examples show it. */
export const EXAMPLE_ENDPOINT = {
  id: '6743a1f0a1b2c3d4e5f60718',
  url: 'https://hooks.example.com/tms',
  description: 'CRM status sync',
  events: ['*'],
  enabled: true,
  disabled_reason: null,
  disabled_at: null,
  consecutive_failures: 0,
  failing_since: null,
  last_success_at: '2026-11-23T16:05:12.345Z',
  created_at: '2026-11-23T16:00:00.000Z',
  updated_at: '2026-11-23T16:00:00.000Z',
  backlog: { pending: 0, oldest_pending_at: null, next_attempt_at: null },
};

/** `POST /api/v1/webhook-endpoints` body. */
export const CreateEndpointBody = Type.Object(
  { url: Url, description: Type.Optional(Description), events: Type.Optional(Events), secret: Type.Optional(Secret) },
  {
    additionalProperties: false,
    examples: [{ url: 'https://hooks.example.com/tms', description: 'CRM status sync', events: ['message.status_changed', 'bulk_send.status_changed'] }],
  },
);

/** `PATCH /api/v1/webhook-endpoints/{id}` body. */
export const PatchEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    description: Type.Optional(Description),
    events: Type.Optional(Events),
    enabled: Type.Optional(Type.Boolean({ description: 'false disables; true enables again and clears the failure streak' })),
    rotate_secret: Type.Optional(Type.Boolean({ description: 'true replaces the secret; the new one is in the answer, once' })),
    secret: Type.Optional(Secret),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ enabled: true }, { rotate_secret: true }] },
);

/** An endpoint id in the path. */
export const EndpointParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'endpoint id', examples: ['6743a1f0a1b2c3d4e5f60718'] }) },
  { additionalProperties: false },
);

/** An endpoint and delivery id in the path. */
export const DeliveryParams = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, description: 'endpoint id', examples: ['6743a1f0a1b2c3d4e5f60718'] }),
    delivery_id: Type.String({ minLength: 1, maxLength: 20, description: 'delivery id (digits)', examples: ['1042'] }),
  },
  { additionalProperties: false },
);

/** An endpoint as the API shows it (the secret never). */
export const EndpointView = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    description: Type.String(),
    events: Type.Array(EventName),
    enabled: Type.Boolean(),
    disabled_reason: nullable(Type.String({ description: "'disabled by the company' or why the service disabled it" })),
    disabled_at: nullable(time()),
    consecutive_failures: Type.Integer({ description: 'failed attempts in a row since the last success' }),
    failing_since: nullable(time()),
    last_success_at: nullable(time()),
    created_at: time(),
    updated_at: time(),
    backlog: Type.Object(
      {
        pending: Type.Integer({ description: 'deliveries not yet delivered nor given up (counted up to 1,000,000)' }),
        oldest_pending_at: nullable(time()),
        next_attempt_at: nullable(time()),
      },
      { description: "addition: the endpoint's undelivered deliveries. A backlog over CLIENT_WEBHOOK_MAX_PENDING disables the endpoint (disabled_reason says so); it is kept and delivered once the endpoint is enabled again, or given up after the retry window" },
    ),
  },
  { examples: [EXAMPLE_ENDPOINT] },
);

/** An endpoint with its secret (create and rotation answers only). */
export const EndpointWithSecret = Type.Object(
  { ...EndpointView.properties, secret: Type.String({ description: 'the signing secret: shown this once, store it now' }) },
  { examples: [{ ...EXAMPLE_ENDPOINT, secret: 'whsec_q5cJ0n1lQe0N2yq2Yw0m7m4o3v0cX1x8dGq8m2pK1sQ' }] },
);

/** An endpoint, with the secret only after a rotation. */
export const PatchedEndpoint = Type.Object(
  { ...EndpointView.properties, secret: Type.Optional(Type.String({ description: 'the new secret, only when rotate_secret was true' })) },
  { examples: [EXAMPLE_ENDPOINT] },
);

/** The delivery log query. */
export const DeliveriesQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(DELIVERY_STATES.map((s) => Type.Literal(s)), { description: 'only deliveries in this state', examples: ['FAILED'] })),
    page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,5}$', description: 'page number from 1 (default 1)', examples: ['1'] })),
    page_size: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'rows per page, 1-500 (default 20)', examples: ['20'] })),
  },
  { additionalProperties: false },
);

/** A delivery as the examples show it. */
export const EXAMPLE_DELIVERY = {
  id: '1042',
  event_id: '0b6f3f5e-4a36-4d5e-9a53-2f1f4f6b9a10',
  event_type: 'message.status_changed',
  status: 'DELIVERED',
  attempts: 2,
  next_attempt_at: null,
  last_attempt_at: '2026-11-23T16:05:12.300Z',
  last_status_code: 200,
  last_error: null,
  delivered_at: '2026-11-23T16:05:12.345Z',
  occurred_at: '2026-11-23T16:04:58.120Z',
  created_at: '2026-11-23T16:04:58.120Z',
  replay_of: null,
  data: {
    message_id: '6743a1f0a1b2c3d4e5f60799', send_wizard_id: null, row_no: null, channel_id: '110000000000001',
    phone_number: '905551234567', user_id: 'TR.13491208655302741918', parent_user_id: null, username: null, status: 'BACKEND_SENT', previous_status: 'BACKEND_DELIVERED', ext_id: 'wamid.HBgMOTA1NTUxMjM0NTY3',
    error_message: null, error_message_detail: null,
  },
};

const str = () => Type.String();

/** `data` of a `message.status_changed` event. */
export const MessageEventData = Type.Object(
  {
    message_id: str(),
    send_wizard_id: nullable(str()),
    row_no: Type.Union([Type.Integer(), Type.Null()]),
    channel_id: str(),
    phone_number: Type.Union([str(), Type.Null()], { description: 'E.164; null for a message sent to a BSUID whose phone number is not known' }),
    user_id: Type.Union([str(), Type.Null()], { description: "the recipient's BSUID, given with the send or reported by the network; null when unknown" }),
    parent_user_id: Type.Union([str(), Type.Null()], { description: 'the parent BSUID the network reported; null when none' }),
    username: Type.Union([str(), Type.Null()], { description: "the recipient's WhatsApp username, when the network showed one" }),
    status: Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s))),
    previous_status: Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s))),
    ext_id: nullable(str()),
    error_message: nullable(str()),
    error_message_detail: nullable(str()),
  },
  { additionalProperties: false, title: 'MessageEventData' },
);

/** `data` of a `bulk_send.status_changed` event. */
export const BulkSendEventData = Type.Object(
  {
    send_wizard_id: str(),
    channel_id: str(),
    template_id: str(),
    template_name: str(),
    status: Type.String({ description: 'RUNNING, PAUSED, STOPPED, COMPLETED (and any status added later)' }),
    previous_status: Type.Union([Type.String({ description: 'PENDING for the first event of a started bulk send' }), Type.Null()]),
    paused_reason: nullable(str()),
    counters: Type.Object(Object.fromEntries(REPORT_COUNTERS.map((c) => [c, Type.Integer()])), { additionalProperties: false }),
  },
  { additionalProperties: false, title: 'BulkSendEventData' },
);

/** A delivery of the log. */
export const DeliveryView = Type.Object(
  {
    id: Type.String({ description: 'delivery id (the X-TMS-Delivery-Id header)' }),
    event_id: Type.String({ description: 'the event id (X-TMS-Event-Id; the same on a replay)' }),
    event_type: Type.String(),
    status: Type.Union(DELIVERY_STATES.map((s) => Type.Literal(s)), { description: 'PENDING (to send or retrying), DELIVERED, FAILED (given up)' }),
    attempts: Type.Integer(),
    next_attempt_at: nullable(time()),
    last_attempt_at: nullable(time()),
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    last_error: nullable(Type.String()),
    delivered_at: nullable(time()),
    occurred_at: time(),
    created_at: time(),
    replay_of: nullable(Type.String({ description: 'the delivery this one replays' })),
    data: Type.Union([MessageEventData, BulkSendEventData], { description: "the event's data, as in the POSTed body (docs/webhooks-out.md)" }),
  },
  { examples: [EXAMPLE_DELIVERY] },
);

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The API view of an endpoint. */
export function toEndpointView(row: WebhookEndpointRow & { backlog?: { pending: number; oldest_pending_at: Date | null; next_attempt_at: Date | null } }) {
  const backlog = row.backlog ?? { pending: 0, oldest_pending_at: null, next_attempt_at: null };
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as Array<(typeof EVENT_SUBSCRIPTIONS)[number]>,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    disabled_at: iso(row.disabled_at),
    consecutive_failures: row.consecutive_failures,
    failing_since: iso(row.failing_since),
    last_success_at: iso(row.last_success_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    backlog: { pending: backlog.pending, oldest_pending_at: iso(backlog.oldest_pending_at), next_attempt_at: iso(backlog.next_attempt_at) },
  };
}

/** The API view of a delivery. */
export function toDeliveryView(row: DeliveryRow) {
  return {
    id: String(row.id),
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.state as (typeof DELIVERY_STATES)[number],
    attempts: row.attempts,
    next_attempt_at: row.state === 'PENDING' ? iso(row.next_attempt_at) : null,
    last_attempt_at: iso(row.last_attempt_at),
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    delivered_at: iso(row.delivered_at),
    occurred_at: iso(row.occurred_at)!,
    created_at: iso(row.created_at)!,
    replay_of: row.replay_of === null ? null : String(row.replay_of),
    data: row.data as Static<typeof MessageEventData> | Static<typeof BulkSendEventData>,
  };
}
