/** Schemas for bulk sends (send wizards). */
import { Type } from 'typebox';
import { MAX_CELL_LENGTH } from '../../domain/bulk-rows.js';
import { MESSAGE_STATUSES } from '../../domain/message-states.js';

const cell = Type.Union([Type.String({ maxLength: MAX_CELL_LENGTH }), Type.Number()]);
const id = Type.String({ minLength: 1, maxLength: 64 });

/** Bulk send statuses (not shown in the interface; fixed in DESIGN §7). */
export const SEND_WIZARD_STATUSES = ['PENDING', 'RUNNING', 'PAUSED', 'STOPPED', 'COMPLETED'] as const;

/** `start` body (documented; read as a stream and checked row by row by the service). */
export const StartV1Body = Type.Object(
  {
    message_template_id: id,
    rows: Type.Array(
      Type.Object(
        {
          id: Type.Optional(Type.Integer()),
          phone_number: cell,
          // null is an absent value, as in startv2's cells.
          full_name: Type.Optional(Type.Union([cell, Type.Null()])),
          url_button_param: Type.Optional(Type.Union([cell, Type.Null()])),
          url_button_param2: Type.Optional(Type.Union([cell, Type.Null()])),
          text_header_param: Type.Optional(Type.Union([cell, Type.Null()], { description: 'header text parameter, or the media link/id of an IMAGE/VIDEO/DOCUMENT header' })),
          copy_code_param: Type.Optional(Type.Union([cell, Type.Null()])),
          params: Type.Optional(Type.Array(cell, { description: 'body parameters {{1}}, {{2}}, ...' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1_000_000 },
    ),
    total_time: Type.Integer({ minimum: 0, description: 'seconds to spread the sends over; 0 = as fast as the channel allows' }),
    channel_id: id,
  },
  { additionalProperties: false },
);

/** `startv2` body. */
export const StartV2Body = Type.Object(
  {
    message_template_id: id,
    rows: Type.Array(Type.Array(Type.Union([cell, Type.Null()])), { minItems: 1, maxItems: 1_000_000, description: '[row number, phone, cells in param_headers order]' }),
    total_time: Type.Integer({ minimum: 0 }),
    channel_id: id,
    param_headers: Type.Array(Type.String({ maxLength: 64 }), {
      minItems: 2,
      description: 'row-number column, phone column, then BODY.<n>, HEADER.<n>, HEADER (media), BUTTONS.<i>, CAROUSEL.<card>.BODY.<n>, CAROUSEL.<card>.BUTTONS.<i>, CAROUSEL.<card>.HEADER, FULL_NAME; a named template ({{first_name}}) takes BODY.<name> / HEADER.<name> or the position BODY.<n>',
    }),
  },
  { additionalProperties: false },
);

/** The answer of both starts. */
export const StartResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ send_wizard_id: Type.String(), summary: Type.Integer(), duplicate_count: Type.Integer() }),
});

/** `stop` body and answer. */
export const StopBody = Type.Object({ send_wizard_id: id, channel_id: id }, { additionalProperties: false });
export const StopResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ send_wizard_id: Type.String(), status: Type.String(), cancelled_count: Type.Integer() }),
});

const paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })),
};

/** `reports` body. */
export const ReportsBody = Type.Object({ ...paging, channel_id: id }, { additionalProperties: false });
/** `reports/detail` body. */
export const ReportDetailBody = Type.Object(
  { data: Type.Optional(Type.Object(paging, { additionalProperties: false })), id },
  { additionalProperties: false },
);

/** Pagination block. */
export const Pagination = Type.Object({ page: Type.Integer(), page_size: Type.Integer(), total: Type.Integer() });

/** A send wizard list item. */
export const ListItem = Type.Object({
  name: Type.String(),
  send_wizard_id: Type.String(),
  status: Type.Union(SEND_WIZARD_STATUSES.map((s) => Type.Literal(s))),
  from_number: Type.String(),
  summary: Type.Integer(),
  waiting: Type.Integer(),
  queued: Type.Integer(),
  processed_count: Type.Integer(),
  awaiting_backend_count: Type.Integer(),
  failed_count: Type.Integer(),
  delivered_count: Type.Integer(),
  sent_count: Type.Integer(),
  seen_count: Type.Integer(),
  created_at: Type.Integer({ description: 'epoch milliseconds' }),
  has_button: Type.Boolean(),
  cancelled_count: Type.Integer(),
  duplicate_count: Type.Integer(),
  total_time: Type.Integer(),
  paused_reason: Type.Union([Type.String(), Type.Null()]),
  message_template_id: Type.String(),
  channel_id: Type.String(),
});

const time = Type.Optional(Type.String({ format: 'date-time' }));

/** A report detail item; time and error fields appear when set. */
export const ReportDetailItem = Type.Object({
  row: Type.Integer(),
  row_id: Type.Union([Type.Integer(), Type.Null()]),
  message_id: Type.String(),
  phone_number: Type.String(),
  full_name: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s))),
  backend_sended_time: time,
  sended_time: time,
  delivered_time: time,
  seen_time: time,
  failed_time: time,
  error_message: Type.Optional(Type.String()),
  error_message_detail: Type.Optional(Type.String()),
  webhook_response: Type.Optional(Type.Any()),
});

/** The API view of a report row (fields that are not set are left out). */
export function toReportItem(r: Record<string, unknown>) {
  const item: Record<string, unknown> = {
    row: r.row_no,
    row_id: r.row_ref === null || r.row_ref === undefined ? null : Number(r.row_ref),
    message_id: r.id,
    phone_number: r.phone_number,
    full_name: r.full_name ?? null,
    status: r.status,
  };
  for (const f of ['backend_sended_time', 'sended_time', 'delivered_time', 'seen_time', 'failed_time']) {
    if (r[f]) item[f] = (r[f] as Date).toISOString();
  }
  for (const f of ['error_message', 'error_message_detail', 'webhook_response']) if (r[f] !== null && r[f] !== undefined) item[f] = r[f];
  return item;
}
