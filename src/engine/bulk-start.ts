/**
 * Starting a bulk send from a spooled body: the fields are checked, then every row is checked against the
 * template (first pass; a bad row fails the start with its row and column), and the unique rows are stored in
 * batches with their due times (second pass) and the bulk send starts. Rows are numbered 1..n in order, so report
 * pages are index ranges. On PostgreSQL a start that sends as fast as the channel allows runs both passes at once
 * in its accepting transaction (a wrong list rolls back, nothing stored); otherwise the whole list is checked
 * before any row is stored.
 *
 * Memory stays flat whatever the row count: between the passes rows live on disk (the first pass writes each
 * unique row as the COPY text fields it will be stored with) or in a bounded hand-over (bulk-ready-lines.ts),
 * duplicates are found with a NumberSet (16 bytes a row at most, outside the JavaScript heap), and the second pass
 * stores the rows with one COPY statement per `batchSize` rows, streamed to the database in pieces of about 32k
 * characters as it reads them.
 */
import { dirname, join } from 'node:path';
import type { Kysely } from 'kysely';
import { AppError, type ErrorElement } from '../errors.js';
import { MAX_SEND_NAME_LENGTH, parseSendName } from '../domain/bulk-send-name.js';
import { parseScheduledAt } from '../domain/bulk-send-states.js';
import { MAX_CELL_LENGTH, MAX_TOTAL_TIME_SECONDS } from '../domain/bulk-limits.js';
import { resolveColumn, rowComponentsJson, rowConverter, templateSlots, v1Field, v1UnusedValueCheck, type Slot } from '../domain/bulk-rows.js';
import { tierLimit } from '../domain/channel.js';
import { newId, newIds } from '../domain/ids.js';
import { RecipientSet, type LinkedRecipient } from '../domain/recipient-set.js';
import { parseRecipient, sendTarget, type RecipientIds } from '../domain/recipients.js';
import type { StoredComponents } from '../domain/templates/types.js';
import { transactionWithCopy } from '../store/db.js';
import { copyField, copyBulkSendRows, BULK_ROWS_COPY } from '../store/message-inserts.js';
import type { Database } from '../store/schema.js';
import { countWindowRecipients, findWindowRecipients } from '../store/tier-window.js';
import { acceptBulkSend, deleteBulkSend, deleteBulkSendRows, insertBulkSend, touchBulkSend } from '../store/bulk-sends.js';
import type { TemplateRow } from '../store/templates.js';
import type { SkippedRow } from '../store/bulk-send-skipped-rows.js';
import { SkippedRows } from './bulk-skipped-rows.js';
import { traceStart } from './start-trace.js';
import { readChannelHealth, type ChannelHealthDeps } from './channel-health.js';
import type { Spooled } from './bulk-spool.js';
import { LineReader, ReadyFile, ReadyHandOff, textLines, type LineSource, type ReadySink } from './bulk-ready-lines.js';
import { requireSendableTemplate } from './single-send.js';
import { MarketTally, rateCardOf } from './pricing.js';
import { findLinks, identityOf } from './recipient-keys.js';
import { pricingCategoryOf, type CostSummary } from '../domain/pricing/rate-card.js';
import { parseMarketingTtl, usesMarketingMessages } from '../domain/marketing-messages.js';

/** What starting a bulk send needs. */
export interface BulkStartDeps {
  db: Kysely<Database>;
  health: ChannelHealthDeps;
  /** Rows per COPY statement of the storing pass (default 5000 on PostgreSQL, 1000 on PGlite). */
  batchSize?: number;
  /** A start's rows committed (all `rows` of them): fresh planner statistics after a large load (PostgreSQL). */
  loaded?(rows: number): void;
  /** The shape checks made from the starts' one schema (http/schemas/bulk-start-check.ts). */
  shapes: StartShapes;
  /**
   * Runs a start's checking and storing (a dry run's checking too) under the process's memory policy for starts:
   * full collections come sooner while it runs, so its garbage does not raise the process's peak memory.
   */
  duringStart?: DuringStart;
}

/** Runs work under the process's memory policy for starts (runtime.ts's HeapGrowth). */
export type DuringStart = <T>(work: () => Promise<T>) => Promise<T>;

/** A field of a body (or of a row: a property name, or a cell's index) that does not fit the schema. */
export interface ShapeProblem {
  field: string;
  problem: 'unknown' | 'missing' | 'invalid';
}

/**
 * A start body's shape, checked against its schema: the engine phrases the problems and adds what a schema cannot
 * check (the phone number, the template's parameters, the row width param_headers sets, scheduled_at's time).
 */
export interface StartShape {
  /** The body's fields, in the schema's order. */
  fields: readonly string[];
  /** The fields a body must have. */
  required: readonly string[];
  /** What is wrong with the fields (`rows` is `true` when the body's rows were an array); none when they fit. */
  fieldProblems(fields: Record<string, unknown>): ShapeProblem[];
  /** What is wrong with one row; none when it fits. */
  rowProblems(row: unknown): ShapeProblem[];
}

/** The shapes of `start` (v1) and `startv2` (v2; a file start is checked as a startv2). */
export type StartShapes = Record<'v1' | 'v2', StartShape>;

/** Most errors reported for one start. */
const MAX_ERRORS = 50;
/** The order in which a body's wrong fields are reported (the first one names the error). */
const FIELD_ORDER = [
  'dry_run', 'skip_invalid_rows', 'scheduled_at', 'send_name', 'message_send_ttl_seconds', 'message_template_id', 'channel_id', 'rows', 'total_time',
  'param_headers',
];
/** The order in which a v1 row's wrong fields are reported (all of them, before the phone and the template). */
const V1_ROW_ORDER = ['id', 'params', 'full_name', 'url_button_param', 'url_button_param2', 'text_header_param', 'copy_code_param'];

/** A row ready to store. */
interface ReadyRow {
  ref: number | null;
  /** E.164, or null when the row names only a BSUID. */
  phone: string | null;
  userId: string | null;
  fullName: string | null;
  /** The JSON text of the network components ('' when the template takes none). */
  components: string;
}

type RowReader = (raw: unknown, index: number) => ReadyRow | ErrorElement[];

/**
 * A spooled row's value. The spool keeps each row's text unparsed (bulk-spool.ts): a row that is not JSON makes
 * the body INVALID_JSON, whatever the other rows hold and whether invalid rows are skipped.
 */
function parseRow(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new AppError('INVALID_JSON', undefined, { field: 'body' });
  }
}

function fieldError(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { field });
}

/** A cell's text: a string of at most MAX_CELL_LENGTH characters (code points, as the schema counts), or a finite number. */
function cell(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const fits = value.length <= MAX_CELL_LENGTH || (value.length <= 2 * MAX_CELL_LENGTH && [...value].length <= MAX_CELL_LENGTH);
    return fits ? value : undefined;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Why a field the schema refuses is wrong, in words. */
function fieldReason(field: string, value: unknown): string {
  switch (field) {
    case 'dry_run':
      return 'dry_run must be a boolean';
    case 'skip_invalid_rows':
      return 'skip_invalid_rows must be a boolean';
    case 'scheduled_at': {
      const parsed = parseScheduledAt(value, new Date());
      return parsed.ok ? 'scheduled_at must be an ISO 8601 date-time with an offset, e.g. 2026-11-24T09:00:00+03:00' : parsed.reason;
    }
    case 'send_name': {
      const parsed = parseSendName(value);
      return parsed.ok ? `send_name is at most ${MAX_SEND_NAME_LENGTH} characters` : parsed.reason;
    }
    case 'message_send_ttl_seconds': {
      const parsed = parseMarketingTtl(value);
      return parsed.ok ? 'message_send_ttl_seconds is whole seconds, or null' : parsed.reason;
    }
    case 'rows':
      return 'rows must be an array';
    case 'total_time':
      return `total_time is whole seconds from 0 (as fast as the channel allows) to ${MAX_TOTAL_TIME_SECONDS}`;
    case 'param_headers':
      return 'param_headers is an array of column names: row number, phone, then parameter columns';
    default:
      return `${field} must be a non-empty string`;
  }
}

/**
 * Checks the non-row fields of a start body against its schema (`shape`), then what the schema cannot say
 * (scheduled_at in the future, send_name one line). The first problem names the error: unknown fields, then
 * missing ones, then wrong ones in FIELD_ORDER.
 */
function checkFields(fields: Record<string, unknown>, shape: StartShape) {
  const problems = shape.fieldProblems(fields);
  const unknown = problems.find((p) => p.problem === 'unknown');
  if (unknown) throw fieldError(unknown.field, `${unknown.field} is not a known field`);
  const missing = shape.required.find((name) => problems.some((p) => p.problem === 'missing' && p.field === name));
  if (missing) throw fieldError(missing, `${missing} is required`);
  const scheduled = fields.scheduled_at === undefined ? null : parseScheduledAt(fields.scheduled_at, new Date());
  const sendName = parseSendName(fields.send_name);
  const ttl = parseMarketingTtl(fields.message_send_ttl_seconds);
  for (const field of FIELD_ORDER) {
    if (problems.some((p) => p.field === field)) throw fieldError(field, fieldReason(field, fields[field]));
    if (field === 'scheduled_at' && scheduled && !scheduled.ok) throw fieldError(field, scheduled.reason);
    if (field === 'send_name' && !sendName.ok) throw fieldError(field, sendName.reason);
    if (field === 'message_send_ttl_seconds' && !ttl.ok) throw fieldError(field, ttl.reason);
  }
  const wrong = problems[0];
  if (wrong) throw fieldError(wrong.field, fieldReason(wrong.field, fields[wrong.field]));
  return {
    templateId: fields.message_template_id as string,
    channelId: fields.channel_id as string,
    totalTime: fields.total_time as number,
    headers: (fields.param_headers as string[] | undefined) ?? [],
    dryRun: fields.dry_run === true,
    scheduledAt: scheduled?.ok ? scheduled.at : null,
    sendName: sendName.ok ? sendName.name : null,
    ttl: ttl.ok ? ttl.ttl : null,
    skipInvalid: fields.skip_invalid_rows === true,
  };
}

function v1Reader(template: TemplateRow, slots: Slot[], shape: StartShape): RowReader {
  if (slots.some((s) => s.card !== undefined)) {
    throw fieldError('message_template_id', 'a carousel template is sent with startv2 (CAROUSEL.<card>.* columns)');
  }
  const unsupported = slots.filter((s) => !s.optional && v1Field(s) === null);
  if (unsupported.length) {
    throw fieldError('message_template_id', `start (v1) rows cannot fill ${unsupported.map((s) => s.column).join(', ')}; use startv2`);
  }
  // Per template, not per row: which row field feeds each column, and the params index of a BODY column.
  const byColumn = new Map(slots.map((s) => [s.column, v1Field(s)]));
  const paramIndex = new Map<string, number>();
  for (const [column, f] of byColumn) {
    const m = f === null ? null : /^params\[(\d+)\]$/.exec(f);
    if (m) paramIndex.set(column, Number(m[1]));
  }
  const convert = rowConverter(template.components as StoredComponents, slots);
  const fast = rowComponentsJson(template.components as StoredComponents, slots);
  // Where each slot's value is in a row: a params index, or a row field (none: the slot takes no v1 value).
  const sources = slots.map((s) => {
    const f = byColumn.get(s.column);
    return f ? { field: f, param: paramIndex.get(s.column) } : null;
  });
  const values: Array<string | undefined> = slots.map(() => undefined);
  const unusedValues = v1UnusedValueCheck(slots);
  return (raw, i) => {
    const at = `rows[${i}]`;
    // The row's shape is the schema's (StartV1Body's rows): an object of known fields, each a cell of at most
    // MAX_CELL_LENGTH characters (or null), params an array of cells, id an integer. The phone number is checked below.
    const shapeProblems = shape.rowProblems(raw);
    // Most rows fit: the problems are sorted out only for a row that has some.
    if (shapeProblems.length) {
      const problems = shapeProblems.filter((p) => p.field !== 'phone_number' && p.field !== 'user_id');
      if (problems.some((p) => p.field === '')) return [{ code: 'VALIDATION_FAILED', message: `${at} must be an object`, field: at }];
      const errors: ErrorElement[] = [];
      for (const p of problems.filter((q) => q.problem === 'unknown')) {
        errors.push({ code: 'VALIDATION_FAILED', message: `${at}.${p.field} is not a known field`, field: `${at}.${p.field}` });
      }
      for (const k of V1_ROW_ORDER.filter((f) => problems.some((p) => p.field === f && p.problem !== 'unknown'))) {
        const message =
          k === 'id' ? `${at}.id must be an integer`
          : k === 'params' ? `${at}.params must be an array of strings of at most ${MAX_CELL_LENGTH} characters`
          : `${at}.${k} must be a string of at most ${MAX_CELL_LENGTH} characters`;
        errors.push({ code: 'VALIDATION_FAILED', message, field: `${at}.${k}` });
      }
      if (errors.length) return errors;
    }
    const row = raw as Record<string, unknown>;
    const who = parseRecipient(row.phone_number, row.user_id, { phone: `${at}.phone_number`, userId: `${at}.user_id` });
    if (!who.ok) return [{ code: 'VALIDATION_FAILED', message: `row ${i + 1}: ${who.reason}`, field: who.field }];
    const params = (row.params as unknown[] | undefined) ?? [];
    // A value the template does not take is refused with the row, as a missing one is (never dropped).
    const unused = unusedValues(row, (f) => `${at}.${f}`, `row ${i + 1}`);
    // Most rows: the components' JSON made straight from the values. A row the fast path leaves (a value one of its
    // checks refuses), or with a value the template does not take, goes through the converter, which names the cells.
    // (No function is made per row on the fast path: through tsx each named one costs a property definition.)
    let components: string | undefined;
    if (fast && !unused.length) {
      for (let j = 0; j < sources.length; j += 1) {
        const from = sources[j];
        values[j] = from === null ? undefined : from.param === undefined ? cell(row[from.field]) : cell(params[from.param]);
      }
      components = fast(values);
    }
    if (components === undefined) {
      const result = convert(
        (column) => {
          const f = byColumn.get(column);
          if (!f) return undefined;
          const k = paramIndex.get(column);
          return k === undefined ? cell(row[f]) : cell(params[k]);
        },
        (c) => `${at}.${byColumn.get(c) ?? c}`,
        `row ${i + 1}`,
      );
      if (!result.ok || unused.length) return [...unused, ...(result.ok ? [] : result.errors)];
      components = componentsText(result.components);
    }
    return { ref: (row.id as number | undefined) ?? null, phone: who.phone, userId: who.userId, fullName: cell(row.full_name) ?? null, components };
  };
}

/**
 * Rows as arrays named by `headers` (startv2). For a file (`labels` given: the file's column headers) the first
 * cell is the sheet's row number, errors name `rows[<sheet row>].<file column>`, and an `ID` column may give the
 * row reference (else the sheet row is the reference).
 */
function v2Reader(template: TemplateRow, slots: Slot[], shape: StartShape, headers: string[], labels?: string[]): RowReader {
  const extras = labels ? ['FULL_NAME', 'USER_ID', 'ID'] : ['FULL_NAME', 'USER_ID'];
  const known = [...slots.map((s) => s.column), ...extras];
  const index = new Map<string, number>();
  headers.forEach((h, k) => {
    if (k < 2) return;
    // A named template's columns are BODY.<name> (or the position, BODY.1); see resolveColumn.
    const upper = h.trim().toUpperCase();
    const name = extras.includes(upper) ? upper : resolveColumn(slots, h);
    if (name === undefined) throw fieldError(`param_headers[${k}]`, `${h} is not a column of this template (${known.join(', ')})`);
    if (index.has(name)) throw fieldError(`param_headers[${k}]`, `${h} is given twice`);
    index.set(name, k);
  });
  const missing = slots.filter((s) => !s.optional && !index.has(s.column));
  if (missing.length) throw fieldError('param_headers', `the template needs the columns ${missing.map((s) => s.column).join(', ')}`);
  const label = (k: number) => labels?.[k] ?? headers[k];
  const convert = rowConverter(template.components as StoredComponents, slots);
  const fast = rowComponentsJson(template.components as StoredComponents, slots);
  const cellOf = slots.map((s) => index.get(s.column));
  const values: Array<string | undefined> = slots.map(() => undefined);
  return (raw, i) => {
    let at = `rows[${i}]`;
    if (!Array.isArray(raw) || raw.length !== headers.length) {
      return [{ code: 'VALIDATION_FAILED', message: `${at} must be an array of ${headers.length} cells (one per param_headers entry)`, field: at }];
    }
    if (!Number.isSafeInteger(raw[0])) return [{ code: 'VALIDATION_FAILED', message: `${at}[0] (row number) must be an integer`, field: `${at}[0]` }];
    if (labels) at = `rows[${raw[0]}]`;
    // Each cell is the schema's (StartV2Body's rows): a string of at most MAX_CELL_LENGTH characters, a number or null.
    const bad = Math.min(...shape.rowProblems(raw).map((p) => Number(p.field)).filter((k) => k > 0));
    if (Number.isFinite(bad)) return [{ code: 'VALIDATION_FAILED', message: `row ${raw[0]}: ${label(bad)} must be a string of at most ${MAX_CELL_LENGTH} characters`, field: `${at}.${label(bad)}` }];
    const value = (column: string) => {
      const k = index.get(column);
      return k === undefined ? undefined : cell(raw[k]);
    };
    const userIdColumn = index.get('USER_ID');
    const who = parseRecipient(raw[1], value('USER_ID') ?? null, {
      phone: `${at}.${label(1)}`,
      userId: `${at}.${userIdColumn === undefined ? 'USER_ID' : label(userIdColumn)}`,
    });
    if (!who.ok) return [{ code: 'VALIDATION_FAILED', message: `row ${raw[0]}: ${who.reason}`, field: who.field }];
    let ref = raw[0] as number;
    const idColumn = index.get('ID');
    if (idColumn !== undefined) {
      const text = value('ID')?.trim() ?? '';
      if (!/^-?\d{1,15}$/.test(text)) {
        return [{ code: 'VALIDATION_FAILED', message: `row ${raw[0]}: ${label(idColumn)} (id) must be a whole number`, field: `${at}.${label(idColumn)}` }];
      }
      ref = Number(text);
    }
    // As in v1: the fast path for most rows, the converter (which names the cells) for any other.
    let components: string | undefined;
    if (fast) {
      for (let j = 0; j < cellOf.length; j += 1) {
        const k = cellOf[j];
        values[j] = k === undefined ? undefined : cell(raw[k]);
      }
      components = fast(values);
    }
    if (components === undefined) {
      const result = convert(value, (c) => `${at}.${label(index.get(c) ?? -1) ?? c}`, `row ${raw[0]}`);
      if (!result.ok) return result.errors;
      components = componentsText(result.components);
    }
    return { ref, phone: who.phone, userId: who.userId, fullName: value('FULL_NAME') ?? null, components };
  };
}

/** Converted components as a ready row keeps them: their JSON text, '' when there are none. */
function componentsText(components: unknown[]): string {
  return components.length ? JSON.stringify(components) : '';
}

/** Whether a template shows buttons: its own BUTTONS component or the buttons of its carousel cards. */
function hasButtons(components: StoredComponents): boolean {
  return components.some(
    (c) => (c.type === 'BUTTONS' && c.buttons.length > 0) || (c.type === 'CAROUSEL' && c.cards.some((card) => hasButtons(card.components))),
  );
}

/**
 * A ready row as the last COPY fields of its stored row (BULK_ROW_COLUMNS from row_ref): row_ref, phone_number,
 * user_id, full_name, payload. The second pass puts the id, row number, due time and the bulk send's own fields
 * before it.
 */
function readyLine(template: TemplateRow): (row: ReadyRow) => string {
  // The payload's JSON (a TemplateSendPayload, keys in its order) is put together from the text every row shares
  // and the row's own parts, each made by JSON.stringify: the same text as stringifying the whole object, with no
  // object built per row.
  const head = '{"messaging_product":"whatsapp","recipient_type":"individual",';
  const middle = `,"type":"template","template":{"name":${JSON.stringify(template.name)},"language":${JSON.stringify({ code: template.language })}`;
  // JSON text holds no raw tab, newline or carriage return: only its backslashes need COPY's escape, part by part
  // (the shared text once), so the joined payload is not searched again.
  const escape = (json: string) => (json.includes('\\') ? json.replaceAll('\\', '\\\\') : json);
  const shared = escape(middle);
  return (row) => {
    const target = row.phone !== null ? `"to":${JSON.stringify(row.phone)}` : JSON.stringify(sendTarget(row)).slice(1, -1);
    const components = row.components ? `,"components":${escape(row.components)}}}` : '}}';
    return `${copyField(row.ref)}\t${copyField(row.phone)}\t${copyField(row.userId)}\t${copyField(row.fullName)}\t${head}${escape(target)}${shared}${components}`;
  };
}

/** The recipient of a ready line: its phone number (second field) and BSUID (third); neither needs a COPY escape. */
function readyRecipient(line: string): RecipientIds {
  const [, phone, userId] = line.split('\t', 3);
  return { phone: phone === '\\N' ? null : phone, userId: userId === '\\N' ? null : userId };
}

/** A started bulk send. */
export interface StartedBulkSend {
  dryRun: false;
  id: string;
  summary: number;
  duplicates: number;
  /** Rows left out as invalid, listed with the bulk send; undefined when skip_invalid_rows was not asked. */
  skipped?: number;
}

/** What a dry run found: the rows a start would store, and the tier quota they need (nothing was stored). */
export interface BulkDryRun {
  dryRun: true;
  rows: number;
  duplicates: number;
  /** Unique numbers the channel has not reached in the rolling 24 h (each takes a slot of the tier). */
  tierQuotaNeeded: number;
  /** New recipients the tier allows now; null when the tier has no cap. */
  tierQuotaLeft: number | null;
  /** What the rows would cost at Meta's list price if every one were delivered. */
  estimate: CostSummary;
  /** Rows a start would leave out as invalid, and the first of them; undefined when skip_invalid_rows was not asked. */
  skipped?: number;
  skippedRows?: SkippedRow[];
}

/** How often a storing start marks itself alive (the stale-start cleanup waits 10 minutes). */
const ALIVE_MARK_EVERY_MS = 60_000;

/** Characters per piece of COPY data the storing pass hands on (well below V8's large-object size). */
const PIECE_CHARS = 32 * 1024;

/** Valid rows whose links are read in one statement (pass 1). */
const LINK_LOOKUP_BATCH = 1000;

/** Numbers looked up in the tier window per statement (dry run). */
const WINDOW_LOOKUP_BATCH = 1000;

/** How many of the ready rows' numbers the channel has not reached in the rolling window, and how many it may still reach. */
async function tierQuota(deps: BulkStartDeps, companyId: string, channel: { id: string; messaging_limit_tier: string | null }, readyFile: string) {
  let needed = 0;
  let batch: RecipientIds[] = [];
  // A recipient is in the window under its key or another of its identifiers (a phone number sent to before the
  // network linked it to a BSUID, or the reverse).
  const count = async () => {
    const links = await findLinks(deps.db, companyId, batch);
    const identities = batch.map((r) => identityOf(links, r));
    const known = await findWindowRecipients(deps.db, channel.id, [...new Set(identities.flatMap((i) => [i.key, ...i.aliases]))]);
    needed += identities.filter((i) => !known.has(i.key) && !i.aliases.some((a) => known.has(a))).length;
    batch = [];
  };
  for await (const line of textLines(readyFile)) {
    batch.push(readyRecipient(line));
    if (batch.length >= WINDOW_LOOKUP_BATCH) await count();
  }
  if (batch.length) await count();
  const limit = tierLimit(channel.messaging_limit_tier);
  const left = limit === null ? null : Math.max(0, limit - (await countWindowRecipients(deps.db, channel.id)));
  return { needed, left };
}

/**
 * Starts a bulk send from a spooled body; returns its id and counts. `inTransaction` runs in the accepting
 * transaction. With `dry_run: true` the rows are checked exactly as for a start and nothing is stored: the
 * answer counts them and the tier quota they need.
 */
export function startBulkSend(
  deps: BulkStartDeps,
  companyId: string,
  variant: 'v1' | 'v2' | 'file',
  spooled: Spooled,
  file: string,
  inTransaction?: (tx: Kysely<Database>, started: { id: string; summary: number; duplicates: number; skipped?: number }) => Promise<void>,
): Promise<StartedBulkSend | BulkDryRun> {
  const start = () => checkAndStore(deps, companyId, variant, spooled, file, inTransaction);
  return deps.duringStart ? deps.duringStart(start) : start();
}

/** startBulkSend's work: pass 1 checks every row, pass 2 stores them (or a dry run's answer). */
async function checkAndStore(
  deps: BulkStartDeps,
  companyId: string,
  variant: 'v1' | 'v2' | 'file',
  spooled: Spooled,
  file: string,
  inTransaction: Parameters<typeof startBulkSend>[5],
): Promise<StartedBulkSend | BulkDryRun> {
  const shape = deps.shapes[variant === 'v1' ? 'v1' : 'v2'];
  const f = checkFields(spooled.fields, shape);
  if (spooled.rowCount === 0) throw fieldError('rows', 'rows must hold at least one row');
  const channel = await readChannelHealth(deps.health, companyId, f.channelId);
  const template = await requireSendableTemplate(deps.db, companyId, channel.waba_id, f.templateId);
  if (f.ttl !== null && template.category !== 'MARKETING') {
    throw fieldError('message_send_ttl_seconds', 'message_send_ttl_seconds is for MARKETING templates (sent through the Marketing Messages API)');
  }
  traceStart('channel and template read');
  const slots = templateSlots(template.components as StoredComponents);
  const read = variant === 'v1' ? v1Reader(template, slots, shape) : v2Reader(template, slots, shape, f.headers, variant === 'file' ? spooled.labels : undefined);

  // Pass 1 checks and converts every row; the first row of each number becomes a ready line, in the form it is
  // stored, so pass 2 neither converts nor parses again. Duplicates are counted.
  const errors: ErrorElement[] = [];
  // Asked to skip invalid rows, a bad row is noted and left out instead of failing the start.
  const skipped = f.skipInvalid ? new SkippedRows(join(dirname(file), 'skipped.jsonl')) : null;
  const seen = new RecipientSet(spooled.rowCount);
  let unique = 0;
  const markets = f.dryRun ? new MarketTally() : null;
  const readyText = readyLine(template);
  // One object reused for every row's duplicate check.
  const linked: LinkedRecipient = { phone: null, userId: null };
  const checkAll = async (out: ReadySink) => {
    // Valid rows wait in chunks for one read of what the network linked to their phone numbers and BSUIDs.
    let chunk: ReadyRow[] = [];
    const flush = async () => {
      const links = await findLinks(deps.db, companyId, chunk);
      for (const row of chunk) {
        linked.phone = row.phone;
        linked.userId = row.userId;
        linked.linkedUserId = row.phone ? links.userIdOf.get(row.phone) : null;
        linked.linkedPhone = row.userId ? links.phoneOf.get(row.userId) : null;
        if (!seen.add(linked)) continue;
        unique += 1;
        markets?.add(row);
        const wait = out.add(readyText(row));
        if (wait) await wait;
      }
      await out.flush();
      chunk = [];
    };
    const rowLines = new LineReader(file);
    let i = 0;
    try {
      for (let line = await rowLines.next(); line !== undefined; line = rowLines.take() ?? (await rowLines.next())) {
        const raw = parseRow(line);
        // Past the most errors reported, the rest of the list is read only for a row that is not JSON.
        if (errors.length >= MAX_ERRORS) continue;
        const row = read(raw, i);
        i += 1;
        if (Array.isArray(row) && skipped) {
          await skipped.add(raw, i - 1, row);
          continue;
        }
        if (Array.isArray(row)) {
          errors.push(...row);
          continue;
        }
        if (errors.length) continue;
        chunk.push(row);
        if (chunk.length >= LINK_LOOKUP_BATCH) await flush();
      }
    } finally {
      await rowLines.close();
    }
    if (!errors.length) await flush();
    await skipped?.close();
  };
  /** The rows left out as repeats of an earlier row's recipient (once pass 1 is done). */
  const duplicateCount = () => spooled.rowCount - unique - (skipped?.count ?? 0);
  /** Throws when pass 1 found the list wrong (nothing of it may be stored). */
  const verdict = () => {
    if (skipped && unique === 0) {
      const first = skipped.first.slice(0, MAX_ERRORS).map((r): ErrorElement => ({ code: 'PARAMETERS_INVALID', message: r.message, field: r.field ?? 'rows' }));
      throw new AppError('PARAMETERS_INVALID', `Every row has a problem (${skipped.count}); nothing would be sent. First: ${first[0].message}`, {
        field: first[0].field,
        details: first,
      });
    }
    if (errors.length) {
      throw new AppError('PARAMETERS_INVALID', `${errors.length}${errors.length >= MAX_ERRORS ? '+' : ''} row problem(s); first: ${errors[0].message}`, {
        field: errors[0].field,
        details: errors.slice(0, MAX_ERRORS),
      });
    }
  };

  // A start on PostgreSQL that sends as fast as the channel allows checks and stores at once: its rows are stored
  // QUEUED in the accepting transaction as pass 1 hands them over, and a wrong list rolls back with nothing
  // stored. A start spread over total_time needs the unique count for its due times first; PGlite has one thread
  // for both sides; a dry run stores nothing: those check the whole list first, through a file.
  const overlapped = !f.dryRun && !f.scheduledAt && f.totalTime === 0 ? transactionWithCopy(deps.db) : undefined;
  let readyFile: string | null = null;
  if (!overlapped) {
    const ready = new ReadyFile(join(dirname(file), 'ready.tsv'));
    try {
      await checkAll(ready);
    } finally {
      await ready.close();
    }
    readyFile = ready.path;
    verdict();
  }

  if (f.dryRun) {
    const quota = await tierQuota(deps, companyId, channel, readyFile!);
    // Every unique row as if delivered and billed, under the category the network will bill it in.
    const category = pricingCategoryOf(template.category, usesMarketingMessages(template.category, channel.marketing_messages_enabled));
    const estimate = markets!.estimate(await rateCardOf(deps.db, companyId), category);
    return {
      dryRun: true, rows: unique, duplicates: duplicateCount(), tierQuotaNeeded: quota.needed, tierQuotaLeft: quota.left, estimate,
      ...(skipped ? { skipped: skipped.count, skippedRows: skipped.first } : {}),
    };
  }

  // Pass 2: store the unique rows in batches, due evenly over total_time.
  const id = newId();
  const hasButton = hasButtons(template.components as StoredComponents);
  const createdAt = await insertBulkSend(deps.db, {
    id,
    company_id: companyId,
    channel_id: channel.id,
    template_id: template.id,
    template_name: template.name,
    send_name: f.sendName,
    from_number: channel.display_phone_number,
    has_button: hasButton,
    total_time: f.totalTime,
    message_send_ttl_seconds: f.ttl,
  });
  traceStart('bulk send inserted');
  const fileLines = readyFile ? new LineReader(readyFile) : null;
  try {
    // A scheduled send's rows are due from its time (spread again from the actual start when it activates). Else
    // from the bulk send's creation, the database's clock that claims compare due times with: the due-work probe
    // steps over that exact time while the rows are stored (listChannelsWithDueWork).
    const start = f.scheduledAt?.getTime() ?? createdAt.getTime();
    // On PGlite every COPY statement holds the one connection, which serves requests in arrival order: a smaller
    // batch lets reads in between (a read waits for one batch, never for the whole list).
    const batchSize = deps.batchSize ?? (transactionWithCopy(deps.db) ? 5000 : 1000);
    // The fields every row of this bulk send shares (BULK_ROW_COLUMNS from company_id to status).
    // PostgreSQL, starting now: the rows are stored QUEUED in the accepting transaction (invisible to every claim
    // until it commits, all of them or none), so no NONE → QUEUED version is written. PGlite and scheduled sends
    // store them waiting (NONE) in batches that commit as they go; the dispatcher queues them once accepted.
    const withCopy = f.scheduledAt ? undefined : transactionWithCopy(deps.db);
    const shared = [companyId, channel.id, template.id, channel.waba_id, id, withCopy ? 'QUEUED' : 'NONE'].map(copyField).join('\t');
    let rowNo = 0;
    let lastDueMs = NaN;
    let dueAt = '';
    /**
     * `first` and the rows after it in `lines`, `batchSize` at most, as COPY lines in pieces of about 32k characters
     * (short-lived, never one large string).
     */
    async function* batch(first: string, lines: LineSource): AsyncGenerator<string> {
      const ids = newIds(batchSize);
      let piece = '';
      for (let k = 0, next: string | undefined = first; k < batchSize && next !== undefined; k += 1) {
        // Rows share a due millisecond in runs (all of them with total_time 0): its text is made once a run.
        const dueMs = f.totalTime === 0 ? start : start + Math.floor((rowNo * f.totalTime * 1000) / unique);
        if (dueMs !== lastDueMs) {
          lastDueMs = dueMs;
          dueAt = new Date(dueMs).toISOString();
        }
        rowNo += 1;
        piece += `${ids[k]}\t${rowNo}\t${dueAt}\t${shared}\t${next}\n`;
        if (piece.length >= PIECE_CHARS) {
          yield piece;
          piece = '';
        }
        if (k + 1 < batchSize) next = lines.take() ?? (await lines.next());
      }
      if (piece) yield piece;
    }
    // The stale-start cleanup's sign of life: written on its own connection (inside the storing transaction it
    // would be invisible), and never awaited by the storing loop, which on PostgreSQL holds a connection of the pool
    // while the mark waits for another (awaiting it deadlocked the pool when every connection held a storing load).
    // At most once a minute: on PostgreSQL every storing row's foreign key check locks the bulk send's row from the
    // storing transaction, whose snapshot keeps each version a mark leaves alive, so every check walks all of them
    // (a mark per batch would make a large start cost more per row than a small one).
    let marking: Promise<void> | null = null;
    let markedAt = Date.now();
    const markAlive = () => {
      if (Date.now() - markedAt < ALIVE_MARK_EVERY_MS) return;
      markedAt = Date.now();
      marking ??= touchBulkSend(deps.db, id).catch(() => undefined).finally(() => (marking = null));
    };
    // A COPY statement starts only once its first row is at hand: none is left empty at the end of the list.
    const storeAll = async (lines: LineSource, copy: (lines: AsyncIterable<string>) => Promise<void>) => {
      for (let first = lines.take() ?? (await lines.next()); first !== undefined; first = lines.take() ?? (await lines.next())) {
        traceStart(`copy ${rowNo}`);
        await copy(batch(first, lines));
        markAlive();
      }
    };
    // The Idempotency-Key answer commits with the start, or neither does.
    const accept = async (tx: Kysely<Database>) => {
      if (rowNo !== unique) throw new Error(`the ready rows of bulk send ${id} ended at ${rowNo} of ${unique}`);
      traceStart('accepting');
      await acceptBulkSend(tx, id, unique, duplicateCount(), f.scheduledAt, !!withCopy);
      await skipped?.store(tx, id);
      await inTransaction?.(tx, { id, summary: unique, duplicates: duplicateCount(), ...(skipped ? { skipped: skipped.count } : {}) });
      traceStart('accepted');
    };
    if (overlapped) {
      await overlapped(async (tx, copy) => {
        traceStart('transaction open');
        const handOff = new ReadyHandOff();
        const storing = storeAll(handOff, (lines) => copy(BULK_ROWS_COPY, lines));
        storing.catch((error: unknown) => handOff.fail(error));
        try {
          await checkAll(handOff);
        } catch (error) {
          handOff.end();
          await storing.catch(() => undefined);
          throw error;
        }
        handOff.end();
        traceStart('rows checked');
        await storing;
        traceStart('rows stored');
        verdict();
        await accept(tx);
      });
      traceStart('committed');
      deps.loaded?.(unique);
    } else if (withCopy) {
      await withCopy(async (tx, copy) => {
        await storeAll(fileLines!, (lines) => copy(BULK_ROWS_COPY, lines));
        await accept(tx);
      });
      deps.loaded?.(unique);
    } else {
      await storeAll(fileLines!, (lines) => copyBulkSendRows(deps.db, lines));
      if (inTransaction) await deps.db.transaction().execute(accept);
      else await accept(deps.db);
    }
  } catch (error) {
    await deleteBulkSendRows(deps.db, id).catch(() => undefined);
    await deleteBulkSend(deps.db, id).catch(() => undefined);
    throw error;
  } finally {
    await fileLines?.close();
  }
  return { dryRun: false, id, summary: unique, duplicates: duplicateCount(), ...(skipped ? { skipped: skipped.count } : {}) };
}
