/** Schemas of the bulk-send timeline and the overview (additions beyond the interface). */
import { Type } from 'typebox';
import { OVERVIEW_PERIODS } from '../../domain/send-stats.js';
import { CostSchema } from './pricing.js';

const count = (description: string) => Type.Integer({ minimum: 0, description });
const rate = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

/** Failed messages by reason: at most 20 codes, most first. */
const Failures = Type.Array(
  Type.Object({
    code: Type.Union([Type.String(), Type.Null()], { description: 'the code that starts the error detail (the network\'s, e.g. 131049, or the service\'s, e.g. RECIPIENT_OPTED_OUT); null when none' }),
    title: Type.Union([Type.String(), Type.Null()], { description: 'one error message of that code' }),
    count: count('failed messages with that code'),
  }),
  { description: 'at most 20, most first' },
);

/** One point of a bulk send's timeline (cumulative). */
const TimelinePoint = Type.Object({
  at: Type.String({ format: 'date-time', description: 'end of the bucket (the first point is the start)' }),
  handed: count('rows handed to the network by then'),
  sent: count("rows the network had accepted (its `sent`; status BACKEND_DELIVERED or beyond)"),
  delivered: count("rows on the customer's phone (`delivered`; BACKEND_SENT or beyond)"),
  read: count('rows read (`read`; BACKEND_SEEN)'),
  failed: count('rows failed'),
});

/** `GET /api/v1/send-wizards/{id}/timeline` data. */
export const TimelineData = Type.Object({
  rows: count('rows of the bulk send'),
  sampled_rows: count('rows read for the curves: every row, or every k-th of a large send'),
  estimated: Type.Boolean({ description: 'true when the curves are scaled up from a sample of the rows' }),
  bucket_seconds: count('width of a bucket (0 when nothing happened yet)'),
  points: Type.Array(TimelinePoint),
  failures: Failures,
});

/** `GET /api/v1/overview` query. */
export const OverviewQuery = Type.Object(
  {
    period: Type.Optional(Type.Union(Object.keys(OVERVIEW_PERIODS).map((p) => Type.Literal(p)), { description: 'the last 24h (hourly), 7d or 30d (daily); default 24h' })),
    channel_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'one channel; all of the company when absent' })),
  },
  { additionalProperties: false, examples: [{ period: '7d', channel_id: '110000000000001' }] },
);

const Counts = {
  messages: count('messages made in the period (bulk rows by their bulk send, single sends)'),
  sent: count("accepted by the network (its `sent`)"),
  delivered: count("on the customer's phone (`delivered`)"),
  read: count('read'),
  failed: count('failed'),
};

/** `GET /api/v1/overview` data. */
export const OverviewData = Type.Object({
  period: Type.String(),
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  bucket_seconds: count('3600 for 24h, 86400 (UTC days) for 7d and 30d'),
  channel_id: Type.Union([Type.String(), Type.Null()]),
  totals: Type.Object({
    ...Counts,
    bulk_sends: count('bulk sends created in the period'),
    single_sends: count('single sends made in the period'),
    cancelled: count('bulk rows cancelled by a stop'),
    delivered_rate: rate('delivered ÷ sent, percent; null when nothing was sent'),
    read_rate: rate('read ÷ delivered, percent; null when nothing was delivered'),
  }),
  series: Type.Array(Type.Object({ at: Type.String({ format: 'date-time', description: 'start of the bucket' }), ...Counts })),
  failures: Failures,
  cost: CostSchema,
  channels: Type.Array(
    Type.Object({
      channel_id: Type.String(),
      name: Type.String(),
      messaging_limit_tier: Type.String(),
      tier_limit: Type.Union([Type.Integer(), Type.Null()], { description: 'new customers allowed per rolling 24 h; null = no cap' }),
      tier_used_24h: count('customers messaged in the rolling 24 h'),
    }),
  ),
});
