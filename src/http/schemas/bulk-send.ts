/** Schemas for bulk sends (the interface's send wizards: /send-wizard/ paths, send_wizard_id). */
import { Type } from 'typebox';
import { MAX_CELL_LENGTH, MAX_NAME_LENGTH, MAX_PARAM_HEADERS, MAX_START_ROWS, MAX_TOTAL_TIME_SECONDS } from '../../domain/bulk-limits.js';
import { MAX_SEND_NAME_LENGTH } from '../../domain/bulk-send-name.js';
import { MESSAGE_STATUSES } from '../../domain/message-states.js';
import { BULK_SEND_ACTIONS, BULK_SEND_MOVES, BULK_SEND_STATUSES } from '../../domain/bulk-send-states.js';
import type { BulkDryRun, StartedBulkSend } from '../../engine/bulk-start.js';
import type { SkippedRow } from '../../store/bulk-send-skipped-rows.js';
import { WEBHOOK_RESPONSE_DOC } from '../openapi/doc-only.js';
import { EX, LIST_ITEM, REPORT_ITEM, START_V1, START_V2 } from '../openapi/examples.js';
import { CostSchema, PricingViewSchema } from './pricing.js';
import { RECIPIENT_FIELDS, recipientFields } from './message.js';
import { marketOf, pricingView } from '../../engine/pricing.js';
import { MARKETING_TTL_SECONDS } from '../../domain/marketing-messages.js';

const cell = Type.Union([Type.String({ maxLength: MAX_CELL_LENGTH }), Type.Number()]);
const id = Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH });
const totalTime = (description?: string) =>
  Type.Integer({ minimum: 0, maximum: MAX_TOTAL_TIME_SECONDS, ...(description ? { description } : {}) });

/** Bulk send statuses (not shown in the interface; fixed in DESIGN §7; declared once in domain/bulk-send-states.ts). */
export { BULK_SEND_STATUSES };

/** Optional `scheduled_at` of both starts and of retry (beyond the interface). */
export const ScheduledAt = Type.String({
  format: 'date-time',
  description:
    'Addition: start at this time instead of now (ISO 8601 with an offset, later than now, at most 90 days ahead). Until then the bulk send is SCHEDULED and its rows NONE; total_time spreads from the actual start.',
  examples: ['2026-11-24T09:00:00+03:00'],
});

/** Optional `send_name` of the starts (beyond the interface). */
export const SendNameField = Type.Union([Type.String({ maxLength: MAX_SEND_NAME_LENGTH }), Type.Null()], {
  description:
    `Addition: the bulk send's own name (one line, at most ${MAX_SEND_NAME_LENGTH} characters, trimmed; blank or null = no name), ` +
    "shown as send_name in the reports list, the report detail and its exports. The list item's name stays the template's name.",
  examples: ['Spring sale – VIP customers'],
});

/** Optional `message_send_ttl_seconds` of the starts (beyond the interface). */
export const MarketingTtlField = Type.Union(
  [Type.Integer({ minimum: MARKETING_TTL_SECONDS.min, maximum: MARKETING_TTL_SECONDS.max }), Type.Null()],
  {
    description:
      'Addition: how long the network keeps trying to deliver each message when it goes through the Marketing Messages API ' +
      '(a MARKETING template on a channel with marketing_messages on), 43200 (12 h) to 2592000 (30 days); null = the network default. ' +
      'Only for MARKETING templates (else 400); ignored by /messages sends.',
    examples: [86400],
  },
);

/** Optional `skip_invalid_rows` of the starts (beyond the interface). */
export const SkipInvalidRowsField = Type.Boolean({
  description:
    'Addition: true leaves out the rows that fail their check instead of refusing the whole start; they are counted (skipped_count) ' +
    'and listed (send-wizard/reports/skipped; a dry run answers the first 100 in skipped_rows). A list with no valid row is still a 400.',
  default: false,
});

/** `dry_run` (beyond the interface): checked like a start, nothing stored. */
export const DryRunField = Type.Boolean({
  description: 'addition: true checks every row exactly as a start would and stores, queues and sends nothing; the answer counts the rows and the tier quota they need',
  default: false,
});

/** `start` body: documents the route and is what the service checks it against (http/schemas/bulk-start-check.ts). */
export const StartV1Body = Type.Object(
  {
    message_template_id: id,
    rows: Type.Array(
      Type.Object(
        {
          id: Type.Optional(Type.Integer({ minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER })),
          // A row names its recipient by phone_number, user_id (a BSUID) or both; null is an absent value, as in startv2's cells.
          phone_number: Type.Optional(Type.Union([cell, Type.Null()], { description: 'digits with the country code; this or user_id (or both) is required' })),
          user_id: Type.Optional(
            Type.Union([cell, Type.Null()], {
              description: "addition: the customer's BSUID (`CC.<id>`, or a parent BSUID `CC.ENT.<id>`) when the phone number is not known; with both, the message goes to the phone number",
            }),
          ),
          full_name: Type.Optional(Type.Union([cell, Type.Null()])),
          url_button_param: Type.Optional(Type.Union([cell, Type.Null()])),
          url_button_param2: Type.Optional(Type.Union([cell, Type.Null()])),
          text_header_param: Type.Optional(Type.Union([cell, Type.Null()], { description: 'header text parameter, or the media link/id of an IMAGE/VIDEO/DOCUMENT header' })),
          copy_code_param: Type.Optional(Type.Union([cell, Type.Null()])),
          params: Type.Optional(Type.Array(cell, { description: 'body parameters {{1}}, {{2}}, ...' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_START_ROWS },
    ),
    total_time: totalTime(`seconds to spread the sends over (at most ${MAX_TOTAL_TIME_SECONDS}, 30 days); 0 = as fast as the channel allows`),
    channel_id: id,
    dry_run: Type.Optional(DryRunField),
    scheduled_at: Type.Optional(ScheduledAt),
    send_name: Type.Optional(SendNameField),
    message_send_ttl_seconds: Type.Optional(MarketingTtlField),
    skip_invalid_rows: Type.Optional(SkipInvalidRowsField),
  },
  { additionalProperties: false, examples: [START_V1] },
);

/** `startv2` body. */
export const StartV2Body = Type.Object(
  {
    message_template_id: id,
    rows: Type.Array(Type.Array(Type.Union([cell, Type.Null()])), {
      minItems: 1,
      maxItems: MAX_START_ROWS,
      description:
        '[row number (an integer), phone, cells in param_headers order]: as many cells as param_headers has entries; the phone cell may be null or blank when a USER_ID column gives the BSUID',
    }),
    total_time: totalTime(),
    channel_id: id,
    param_headers: Type.Array(Type.String({ maxLength: MAX_NAME_LENGTH }), {
      minItems: 2,
      maxItems: MAX_PARAM_HEADERS,
      description: 'row-number column, phone column, then BODY.<n>, HEADER.<n>, HEADER (media), BUTTONS.<i>, CAROUSEL.<card>.BODY.<n>, CAROUSEL.<card>.BUTTONS.<i>, CAROUSEL.<card>.HEADER, FULL_NAME, USER_ID (addition: the BSUID, `CC.<id>`, for rows whose phone cell is empty; with both, the message goes to the phone number); a named template ({{first_name}}) takes BODY.<name> / HEADER.<name> or the position BODY.<n>',
    }),
    dry_run: Type.Optional(DryRunField),
    scheduled_at: Type.Optional(ScheduledAt),
    send_name: Type.Optional(SendNameField),
    message_send_ttl_seconds: Type.Optional(MarketingTtlField),
    skip_invalid_rows: Type.Optional(SkipInvalidRowsField),
  },
  { additionalProperties: false, examples: [START_V2] },
);

/** A row a start left out as invalid. */
export const SkippedRowItem = Type.Object({
  row: Type.Integer({ description: "the row's number as the client knows it: its place in start's rows (from 1), startv2's row-number cell, a file's sheet row" }),
  row_id: Type.Union([Type.Integer(), Type.Null()], { description: "start's row id when it gave one" }),
  phone_number: Type.Union([Type.String(), Type.Null()], { description: 'the phone as given (up to 64 characters)' }),
  field: Type.Union([Type.String(), Type.Null()], { description: 'the first problem\'s field, as a refused start would name it' }),
  message: Type.String({ description: 'its problems' }),
});
const SKIPPED_ROW = { row: 3, row_id: 3, phone_number: '90555', field: 'rows[2].phone_number', message: 'row 3: a phone number has 8 to 15 digits with its country code' };

/** The API view of a skipped row. */
export function toSkippedItem(r: SkippedRow) {
  return { row: r.row_no, row_id: r.row_ref, phone_number: r.phone_number, field: r.field, message: r.message };
}

/** The answer of both starts. */
export const StartResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      send_wizard_id: Type.String(),
      summary: Type.Integer({ description: 'unique rows stored' }),
      duplicate_count: Type.Integer({ description: 'rows left out because their recipient (phone number or BSUID, or one the network linked to it) came earlier' }),
      skipped_count: Type.Optional(Type.Integer({ description: 'addition, with skip_invalid_rows only: rows left out as invalid, listed in send-wizard/reports/skipped' })),
    }),
  },
  { examples: [{ success: true, data: { send_wizard_id: EX.bulkSendId, summary: 2, duplicate_count: 0 } }] },
);

/** The answer of a dry run (beyond the interface). */
export const DryRunResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      dry_run: Type.Literal(true),
      summary: Type.Integer({ description: "unique rows a start would store (duplicate recipients removed): the start's and the list item's summary" }),
      duplicate_count: Type.Integer({ description: "rows whose recipient an earlier row already has: the start's and the list item's duplicate_count" }),
      tier_needed_24h: Type.Integer({ description: "unique recipients the channel has not reached in the rolling 24 h (each takes a tier slot)" }),
      tier_left_24h: Type.Union([Type.Integer(), Type.Null()], { description: "new recipients the tier allows now (the channel's tier_left_24h); null when the tier has no cap" }),
      estimate: { ...CostSchema, description: "what the rows would cost at Meta's list price if every one were delivered (the company's rate card; the template's pricing category, marketing_lite through the Marketing Messages API); not an invoice" },
      skipped_count: Type.Optional(Type.Integer({ description: 'with skip_invalid_rows only: rows a start would leave out as invalid' })),
      skipped_rows: Type.Optional(Type.Array(SkippedRowItem, { description: 'with skip_invalid_rows only: the first 100 of them' })),
    }),
  },
  { examples: [{ success: true, data: { dry_run: true, summary: 980, duplicate_count: 20, tier_needed_24h: 975, tier_left_24h: 250, estimate: LIST_ITEM.cost } }] },
);

/** A start's answer: started, or (dry_run) checked only. */
export const StartOrDryRunResponse = Type.Union([StartResponse, DryRunResponse], {
  examples: [
    { success: true, data: { send_wizard_id: EX.bulkSendId, summary: 2, duplicate_count: 0 } },
    { success: true, data: { dry_run: true, summary: 980, duplicate_count: 20, tier_needed_24h: 975, tier_left_24h: 250, estimate: LIST_ITEM.cost } },
    { success: true, data: { dry_run: true, summary: 980, duplicate_count: 20, tier_needed_24h: 975, tier_left_24h: 250, estimate: LIST_ITEM.cost, skipped_count: 1, skipped_rows: [SKIPPED_ROW] } },
  ],
});

/** The answer data of a start or a dry run. */
export function startAnswer(result: StartedBulkSend | BulkDryRun) {
  if (result.dryRun) {
    return {
      success: true as const,
      data: {
        dry_run: true as const, summary: result.rows, duplicate_count: result.duplicates, tier_needed_24h: result.tierQuotaNeeded,
        tier_left_24h: result.tierQuotaLeft, estimate: result.estimate,
        ...(result.skipped === undefined ? {} : { skipped_count: result.skipped, skipped_rows: (result.skippedRows ?? []).map(toSkippedItem) }),
      },
    };
  }
  return { success: true as const, data: startedData(result) };
}

/** A started bulk send's answer data (also what an Idempotency-Key replays). */
export function startedData(s: { id: string; summary: number; duplicates: number; skipped?: number }) {
  return { send_wizard_id: s.id, summary: s.summary, duplicate_count: s.duplicates, ...(s.skipped === undefined ? {} : { skipped_count: s.skipped }) };
}

/** `stop` body and answer. */
export const StopBody = Type.Object({ send_wizard_id: id, channel_id: id }, {
  additionalProperties: false,
  examples: [{ send_wizard_id: EX.bulkSendId, channel_id: EX.channelId }],
});
export const StopResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      send_wizard_id: Type.String(),
      status: Type.Literal(BULK_SEND_MOVES.stop.to),
      cancelled_count: Type.Integer({ description: 'rows cancelled before this answer (at most 1,000)' }),
      cancelling_count: Type.Integer({ description: 'addition: rows still being cancelled right after this answer (0: none was left); the reports list shows it until it is 0' }),
    }),
  },
  { examples: [{ success: true, data: { send_wizard_id: EX.bulkSendId, status: 'STOPPED', cancelled_count: 1000, cancelling_count: 520 } }] },
);

const paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })),
};

/** `reports` body. */
export const ReportsBody = Type.Object({ ...paging, channel_id: id }, {
  additionalProperties: false,
  examples: [{ page: 1, page_size: 20, channel_id: EX.channelId }],
});
/** One message status (the states table of the interface). */
export const MessageStatusSchema = Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s)));

/** `reports/detail` body; `status` and `data.after_row` are beyond the interface. */
export const ReportDetailBody = Type.Object(
  {
    data: Type.Optional(
      Type.Object(
        {
          ...paging,
          after_row: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: 1_000_000,
              description: 'addition: keyset paging, the rows after this row number (the last `row` of the previous page); `page` is then only echoed',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    id,
    status: Type.Optional(
      Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s)), {
        description: 'addition: only rows in this message status; pagination.total is then the count of those rows',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ id: '6650f0c2a1b2c3d4e5f60718', data: { page: 1, page_size: 50 }, status: 'BACKEND_FAILED' }] },
);

/** Pagination block. */
export const Pagination = Type.Object({ page: Type.Integer(), page_size: Type.Integer(), total: Type.Integer({ description: 'items on all pages' }) });


/** What the user may do to the bulk send now (from the bulk-send transition table). */
export const AllowedActions = Type.Array(Type.Union(BULK_SEND_ACTIONS.map((a) => Type.Literal(a))), {
  description:
    'addition: what the user may do to the bulk send now: `pause` (RUNNING, PAUSED), `resume` (PAUSED_BY_USER), `stop` (not finished), ' +
    '`retry` (COMPLETED or STOPPED with failed rows). Decided by the server from its transition table; a client shows these actions, nothing else.',
});

/** A bulk send list item. */
export const ListItem = Type.Object({
  name: Type.String({ description: "name fixed by the interface: the template's name (the bulk send's own is send_name)" }),
  send_wizard_id: Type.String({ description: 'name fixed by the interface: the bulk send\'s id' }),
  status: Type.Union(BULK_SEND_STATUSES.map((s) => Type.Literal(s))),
  from_number: Type.String(),
  summary: Type.Integer({ description: 'name fixed by the interface: rows of the bulk send (duplicates left out)' }),
  waiting: Type.Integer(),
  queued: Type.Integer(),
  processed_count: Type.Integer(),
  awaiting_backend_count: Type.Integer(),
  failed_count: Type.Integer(),
  delivered_count: Type.Integer({ description: "name fixed by the interface: rows the network accepted (WhatsApp's `sent`)" }),
  sent_count: Type.Integer({ description: "name fixed by the interface: rows on the customer's phone (WhatsApp's `delivered`)" }),
  seen_count: Type.Integer({ description: "name fixed by the interface: rows read (WhatsApp's `read`)" }),
  created_at: Type.Integer({ description: 'fixed by the interface: epoch milliseconds, the only time of the API that is not an ISO 8601 string' }),
  has_button: Type.Boolean(),
  cancelled_count: Type.Integer(),
  cancelling_count: Type.Integer({ description: 'addition: rows of a STOPPED bulk send still being cancelled (0 once the stop has cancelled them all)' }),
  duplicate_count: Type.Integer(),
  total_time: Type.Integer(),
  paused_reason: Type.Union([Type.String(), Type.Null()]),
  message_template_id: Type.String(),
  channel_id: Type.String(),
  scheduled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'addition: when a scheduled bulk send starts (null: started at once)' }),
  retry_of: Type.Union([Type.String(), Type.Null()], { description: 'addition: the bulk send whose failed rows this one retries' }),
  skipped_count: Type.Integer({ description: 'addition: rows its start left out as invalid (skip_invalid_rows), listed in send-wizard/reports/skipped' }),
  send_name: Type.Union([Type.String(), Type.Null()], { description: "addition: the bulk send's own name given at its start (a retry takes its source's); null when none" }),
  cost: { ...CostSchema, description: "addition: billable messages by pricing category and market (billable pricing from the status webhooks, delivered or read) and their cost at Meta's list price from the company's rate card; not an invoice" },
  allowed_actions: AllowedActions,
});

const time = Type.Optional(Type.String({ format: 'date-time' }));

/** A report detail item; time and error fields appear when set. */
export const ReportDetailItem = Type.Object({
  row: Type.Integer(),
  row_id: Type.Union([Type.Integer(), Type.Null()]),
  message_id: Type.String(),
  phone_number: Type.Union([Type.String(), Type.Null()], { description: 'the customer number; null for a row sent to a BSUID whose phone number is not known' }),
  ...RECIPIENT_FIELDS,
  full_name: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s))),
  backend_sended_time: time,
  sended_time: time,
  delivered_time: time,
  seen_time: time,
  failed_time: time,
  error_message: Type.Optional(Type.String()),
  error_message_detail: Type.Optional(Type.String()),
  market: Type.Union([Type.String(), Type.Null()], { description: "addition: the recipient's country (ISO 3166-1 alpha-2), null when unknown" }),
  pricing: PricingViewSchema,
  webhook_response: Type.Optional(Type.Any(WEBHOOK_RESPONSE_DOC)),
});

/** The `reports` answer. */
export const ReportsResponse = Type.Object(
  { success: Type.Literal(true), items: Type.Array(ListItem), pagination: Pagination },
  { examples: [{ success: true, items: [LIST_ITEM], pagination: { page: 1, page_size: 20, total: 1 } }] },
);

/** `reports/skipped` body (beyond the interface). */
export const SkippedRowsBody = Type.Object({ data: Type.Optional(Type.Object(paging, { additionalProperties: false })), id }, {
  additionalProperties: false,
  examples: [{ id: '6650f0c2a1b2c3d4e5f60718', data: { page: 1, page_size: 50 } }],
});

/** The `reports/skipped` answer. */
export const SkippedRowsResponse = Type.Object(
  { success: Type.Literal(true), data: Type.Object({ skipped_rows: Type.Array(SkippedRowItem) }), pagination: Pagination },
  { examples: [{ success: true, data: { skipped_rows: [SKIPPED_ROW] }, pagination: { page: 1, page_size: 20, total: 1 } }] },
);

/** The `reports/detail` answer. */
export const ReportDetailResponse = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      report_details: Type.Array(ReportDetailItem),
      send_name: Type.Union([Type.String(), Type.Null()], { description: "addition: the bulk send's own name; null when none" }),
      cost: { ...CostSchema, description: "addition: the bulk send's billable messages by category and market and their cost at Meta's list price (not an invoice)" },
      status: Type.Union(BULK_SEND_STATUSES.map((s) => Type.Literal(s)), { description: "addition: the bulk send's status" }),
      allowed_actions: AllowedActions,
    }),
    pagination: Pagination,
  },
  {
    examples: [
      {
        success: true,
        data: { report_details: [REPORT_ITEM], send_name: 'Spring sale – VIP customers', cost: LIST_ITEM.cost, status: 'COMPLETED', allowed_actions: [] },
        pagination: { page: 1, page_size: 20, total: 2 },
      },
    ],
  },
);

/** The API view of a report row (fields that are not set are left out). */
export function toReportItem(r: Record<string, unknown>) {
  const item: Record<string, unknown> = {
    row: r.row_no,
    row_id: r.row_ref === null || r.row_ref === undefined ? null : Number(r.row_ref),
    message_id: r.id,
    phone_number: r.phone_number ?? null,
    ...recipientFields(r),
    full_name: r.full_name ?? null,
    status: r.status,
    market: marketOf(r),
    pricing: pricingView(r),
  };
  for (const f of ['backend_sended_time', 'sended_time', 'delivered_time', 'seen_time', 'failed_time']) {
    if (r[f]) item[f] = (r[f] as Date).toISOString();
  }
  for (const f of ['error_message', 'error_message_detail', 'webhook_response']) if (r[f] !== null && r[f] !== undefined) item[f] = r[f];
  return item;
}
