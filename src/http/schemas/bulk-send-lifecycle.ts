/** Schemas of the bulk-send lifecycle routes (pause, resume, retry; beyond the interface). */
import { Type } from 'typebox';
import { BULK_SEND_MOVES, BULK_SEND_STATUSES } from '../../domain/bulk-send-states.js';
import { ScheduledAt } from './bulk-send.js';

const id = Type.String({ minLength: 1, maxLength: 64 });
const status = Type.Union(BULK_SEND_STATUSES.map((s) => Type.Literal(s)));
const EXAMPLE_ID = '6752f0a1c3d4e5f601234567';
const EXAMPLE_CHANNEL = '110000000000001';

/** Family A pause / resume body: the bulk send and its channel, as for stop. */
export const PauseBodyA = Type.Object(
  { send_wizard_id: id, channel_id: id },
  { additionalProperties: false, examples: [{ send_wizard_id: EXAMPLE_ID, channel_id: EXAMPLE_CHANNEL }] },
);

/** Family B path parameter. */
export const BulkSendIdParams = Type.Object({ id }, { additionalProperties: false, examples: [{ id: EXAMPLE_ID }] });

/** What pause and resume answer. */
export const PauseData = Type.Object(
  {
    send_wizard_id: Type.String(),
    status: status,
    paused_reason: Type.Union([Type.String(), Type.Null()], {
      description: "the service's own pause reason (channel FLAGGED/RED, TIER_LIMIT, token refused): kept through a user pause and restored by resume",
    }),
    parked_count: Type.Integer({ description: 'rows this pause sent back to waiting (NONE); 0 for resume' }),
    window_seconds: Type.Integer({ description: 'resume: seconds of the total_time window left, over which the waiting rows are spread from now (0: as fast as the channel allows); 0 for pause' }),
  },
  {
    examples: [
      { send_wizard_id: EXAMPLE_ID, status: 'PAUSED_BY_USER', paused_reason: null, parked_count: 812, window_seconds: 0 },
      { send_wizard_id: EXAMPLE_ID, status: 'RUNNING', paused_reason: null, parked_count: 0, window_seconds: 1450 },
    ],
  },
);

const retryFields = {
  error_codes: Type.Optional(
    Type.Array(Type.Integer({ minimum: 1, maximum: 99_999_999 }), {
      minItems: 1,
      maxItems: 50,
      description: "only failed rows whose network error code (as error_message_detail starts, e.g. 131049) is one of these",
    }),
  ),
  scheduled_at: Type.Optional(ScheduledAt),
  total_time: Type.Optional(Type.Integer({ minimum: 0, maximum: 30 * 24 * 3600, description: 'seconds to spread the new bulk send over (default 0: as fast as the channel allows)' })),
};

/** Family A retry body. */
export const RetryBodyA = Type.Object(
  { send_wizard_id: id, channel_id: id, ...retryFields },
  {
    additionalProperties: false,
    examples: [{ send_wizard_id: EXAMPLE_ID, channel_id: EXAMPLE_CHANNEL, error_codes: [131049], scheduled_at: '2026-11-25T09:00:00Z', total_time: 3600 }],
  },
);

/** Family B retry body (every field optional; send `{}` for all failed rows now). */
export const RetryBodyB = Type.Object(retryFields, {
  additionalProperties: false,
  examples: [{ error_codes: [131049], scheduled_at: '2026-11-25T09:00:00Z' }, {}],
});

/** What retry answers. */
export const RetryData = Type.Object(
  {
    send_wizard_id: Type.String({ description: 'the NEW bulk send' }),
    retry_of: Type.String({ description: 'the bulk send whose failed rows it took' }),
    status: Type.Union([Type.Literal(BULK_SEND_MOVES.start.to), Type.Literal(BULK_SEND_MOVES.schedule.to)]),
    summary: Type.Integer({ description: 'rows taken into the new bulk send' }),
    failed_count: Type.Integer({ description: 'failed rows of the source' }),
    filtered_count: Type.Integer({ description: 'failed rows left out by error_codes' }),
    excluded_count: Type.Integer({ description: 'failed rows left out because the recipient may have the message (accepted by the network, outcome unknown, or a later message of the template that did not fail)' }),
    scheduled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  {
    examples: [
      { send_wizard_id: '6752f3b0c3d4e5f601234999', retry_of: EXAMPLE_ID, status: 'SCHEDULED', summary: 37, failed_count: 52, filtered_count: 12, excluded_count: 3, scheduled_at: '2026-11-25T09:00:00.000Z' },
    ],
  },
);
