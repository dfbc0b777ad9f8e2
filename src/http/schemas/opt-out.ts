/** Schemas of the opt-out routes (family B style, beyond the interface). */
import { Type } from 'typebox';
import { OPT_OUT_SOURCES } from '../../domain/opt-outs.js';
import type { OptOutRow } from '../../store/opt-outs.js';
import { MAX_REASON_LENGTH } from '../../engine/opt-outs.js';

const phone = Type.String({ minLength: 1, maxLength: 32, description: 'Digits with the country code, optionally with a leading + (stored in E.164)' });

const EXAMPLE_ENTRY = {
  phone_number: '+905551234567',
  user_id: 'TR.13491208655302741918',
  source: 'inbound_keyword',
  applies_to: 'all',
  keyword: 'STOP',
  reason: null,
  channel_id: '110000000000001',
  created_at: '2026-11-23T16:05:12.345Z',
};

/** One entry of the company's opt-out list. */
export const OptOutItem = Type.Object(
  {
    phone_number: Type.Union([Type.String(), Type.Null()], { description: 'The number in E.164 (+ and 8-15 digits); null for an entry by BSUID only' }),
    user_id: Type.Union([Type.String(), Type.Null()], { description: 'The BSUID (business-scoped user id, e.g. US.13491208655302741918); null for an entry by number only' }),
    source: Type.Union(OPT_OUT_SOURCES.map((s) => Type.Literal(s)), {
      description:
        'api (POST /api/v1/opt-outs or tms opt-out add), import (POST /api/v1/opt-outs/import), inbound_keyword (the customer replied an opt-out keyword), user_preferences (the customer stopped marketing messages in WhatsApp)',
    }),
    applies_to: Type.Union([Type.Literal('all'), Type.Literal('marketing')], { description: 'all templates, or MARKETING templates only (user_preferences)' }),
    keyword: Type.Union([Type.String(), Type.Null()], { description: 'The keyword the reply matched (inbound_keyword only)' }),
    reason: Type.Union([Type.String(), Type.Null()], { description: 'Free text given with an add or an import line' }),
    channel_id: Type.Union([Type.String(), Type.Null()], { description: 'The channel the opt-out reply came in on (inbound_keyword only)' }),
    created_at: Type.String({ format: 'date-time', description: 'When the number was added (ISO 8601 UTC)' }),
  },
  { additionalProperties: false, examples: [EXAMPLE_ENTRY] },
);

/** The API form of a stored opt-out. */
export function toOptOutItem(row: OptOutRow) {
  return {
    phone_number: row.phone_number,
    user_id: row.user_id,
    applies_to: row.applies_to === 'marketing' ? ('marketing' as const) : ('all' as const),
    source: row.source as (typeof OPT_OUT_SOURCES)[number],
    keyword: row.keyword,
    reason: row.reason,
    channel_id: row.channel_id,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** `GET /api/v1/opt-outs` query (integers as strings: the query is not type-coerced). */
export const OptOutListQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'Page number, from 1 (default 1)' })),
    page_size: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'Entries per page, 1-500 (default 20)' })),
    phone_number: Type.Optional(
      Type.String({ pattern: '^\\+?[0-9]{1,20}$', description: 'Keeps numbers that contain these digits (a leading + is ignored), e.g. 905551234567 or 4567' }),
    ),
    user_id: Type.Optional(
      Type.String({ maxLength: 80, description: 'Keeps BSUIDs that contain this text (letters, digits and dots), e.g. US.1349 (with phone_number: entries matching either)', examples: ['US.1349'] }),
    ),
  },
  { additionalProperties: false, examples: [{ page: '1', page_size: '20', phone_number: '4567' }] },
);

/** Pagination of the list. */
export const OptOutPagination = Type.Object(
  { page: Type.Integer(), page_size: Type.Integer(), total: Type.Integer({ description: 'Entries matching the search' }) },
  { additionalProperties: false },
);

/** `POST /api/v1/opt-outs` body. */
export const OptOutAddBody = Type.Object(
  {
    phone_number: Type.Optional(Type.Union([phone, Type.Null()])),
    user_id: Type.Optional(
      Type.Union([Type.String({ maxLength: 200, description: 'A BSUID: country code, a dot and the id (US.13491208655302741918; a parent BSUID US.ENT.…)' }), Type.Null()]),
    ),
    reason: Type.Optional(Type.Union([Type.String({ maxLength: MAX_REASON_LENGTH }), Type.Null()], { description: 'Free text kept with the entry' })),
  },
  {
    additionalProperties: false,
    description: 'phone_number and/or user_id (at least one)',
    examples: [{ phone_number: '905551234567', reason: 'asked by phone' }, { user_id: 'TR.13491208655302741918', reason: 'asked in chat' }],
  },
);

/** `POST /api/v1/opt-outs` answer data. */
export const OptOutAddData = Type.Object(
  {
    opt_out: OptOutItem,
    created: Type.Boolean({ description: 'false when the number or BSUID was already on the list (its first entry is kept and returned)' }),
  },
  { additionalProperties: false },
);

/** `DELETE /api/v1/opt-outs/{phone_number}` path. */
export const OptOutParams = Type.Object(
  {
    phone_number: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The number, digits with country code (a leading + URL-encoded as %2B, or left out), or a BSUID (US.13491208655302741918)',
      examples: ['905551234567'],
    }),
  },
  { additionalProperties: false },
);

/** The company's keywords. */
export const OptOutKeywordsData = Type.Object(
  {
    keywords: Type.Array(Type.String(), { description: 'Upper case; a reply matches when, trimmed and with inner spaces collapsed, it equals one of them ignoring case' }),
    is_default: Type.Boolean({ description: 'true while the company has not set its own list' }),
  },
  { additionalProperties: false, examples: [{ keywords: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'OPT OUT'], is_default: true }] },
);

/** `PUT /api/v1/opt-outs/keywords` body. */
export const OptOutKeywordsBody = Type.Object(
  {
    keywords: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      maxItems: 50,
      description: 'The new list (replaces the old; [] turns keyword opt-outs off). At most 50, each at most 64 characters after trimming; no two equal ignoring case',
    }),
  },
  { additionalProperties: false, examples: [{ keywords: ['STOP', 'UNSUBSCRIBE', 'IPTAL', 'DUR'] }] },
);

/** `POST /api/v1/opt-outs/import` answer data. */
export const OptOutImportData = Type.Object(
  {
    lines: Type.Integer({ description: 'Data lines read (header and empty lines not counted)' }),
    added: Type.Integer({ description: 'Entries newly added' }),
    already_listed: Type.Integer({ description: 'Lines whose number or BSUID was already on the list or repeated an earlier line' }),
    invalid: Type.Integer({ description: 'Lines refused (bad or empty number or BSUID, reason too long); the others were stored' }),
    errors: Type.Array(
      Type.Object({ line: Type.Integer({ description: 'Line in the file (1 = the header)' }), message: Type.String() }, { additionalProperties: false }),
      { description: 'The first 100 refused lines' },
    ),
  },
  {
    additionalProperties: false,
    examples: [{ lines: 3, added: 2, already_listed: 0, invalid: 1, errors: [{ line: 3, message: 'phone_number "12ab": a phone number is digits with the country code, optionally with a leading +' }] }],
  },
);
