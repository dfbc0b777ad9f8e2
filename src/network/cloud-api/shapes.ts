/**
 * Checks that Graph API answers have the shape the service relies on, and maps them to the port's types.
 * An answer of another shape is a 'bad_response' NetworkError, never a crash further in.
 */
import type {
  ContactStatus, CreatedTemplate, GraphTemplate, PhoneNumberInfo, SendMessageResult, TemplatePage, UploadSession,
} from '../port.js';
import { NetworkError } from '../port.js';
import { tierFromNetwork } from '../../domain/channel.js';

type Obj = Record<string, unknown>;

function bad(what: string): NetworkError {
  return new NetworkError('bad_response', `unexpected answer: ${what}`, 200);
}

function obj(value: unknown, what: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(`${what} is not an object`);
  return value as Obj;
}

function str(o: Obj, key: string, what: string): string {
  const v = o[key];
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') throw bad(`${what}.${key} is not a string`);
  return v;
}

function arr(o: Obj, key: string, what: string): unknown[] {
  const v = o[key];
  if (!Array.isArray(v)) throw bad(`${what}.${key} is not an array`);
  return v;
}

/** A tier name from a field that should hold one (a string; anything else counts as absent). */
function tierField(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * `GET /{phone-number-id}` → PhoneNumberInfo. The tier comes from `whatsapp_business_manager_messaging_limit`
 * (a string such as "TIER_2K" in Meta's docs), then the deprecated `messaging_limit_tier`, else UNKNOWN; a
 * missing `status` (numbers read with the default fields have none) is UNKNOWN.
 */
export function toPhoneNumberInfo(json: unknown): PhoneNumberInfo {
  const o = obj(json, 'phone number');
  const throughput = o.throughput as { level?: unknown } | undefined;
  const info: PhoneNumberInfo = {
    id: str(o, 'id', 'phone number'),
    display_phone_number: str(o, 'display_phone_number', 'phone number'),
    verified_name: typeof o.verified_name === 'string' ? o.verified_name : '',
    status: typeof o.status === 'string' ? o.status : 'UNKNOWN',
    quality_rating: str(o, 'quality_rating', 'phone number'),
    messaging_limit_tier: tierFromNetwork(tierField(o.whatsapp_business_manager_messaging_limit), tierField(o.messaging_limit_tier)),
  };
  if (throughput && typeof throughput === 'object' && typeof throughput.level === 'string') info.throughput_level = throughput.level;
  if (typeof o.account_mode === 'string') info.account_mode = o.account_mode;
  return info;
}

/** `POST /{waba}/message_templates` → CreatedTemplate. */
export function toCreatedTemplate(json: unknown): CreatedTemplate {
  const o = obj(json, 'created template');
  return { id: str(o, 'id', 'template'), status: str(o, 'status', 'template'), category: str(o, 'category', 'template') };
}

/** A template object of the list or of `GET /{template-id}`. */
export function toGraphTemplate(json: unknown): GraphTemplate {
  const o = obj(json, 'template');
  const t: GraphTemplate = {
    id: str(o, 'id', 'template'),
    name: str(o, 'name', 'template'),
    language: str(o, 'language', 'template'),
    status: str(o, 'status', 'template'),
    category: str(o, 'category', 'template'),
    components: Array.isArray(o.components) ? (o.components as GraphTemplate['components']) : [],
  };
  for (const key of ['parameter_format', 'rejected_reason', 'previous_category'] as const) {
    if (typeof o[key] === 'string') t[key] = o[key] as string;
  }
  return t;
}

/** `GET /{waba}/message_templates` → TemplatePage (no `paging` when the list is empty). */
export function toTemplatePage(json: unknown): TemplatePage {
  const o = obj(json, 'template list');
  const data = arr(o, 'data', 'template list').map(toGraphTemplate);
  const paging = (o.paging ?? {}) as { cursors?: { before?: unknown; after?: unknown }; next?: unknown };
  const cursor = (v: unknown) => (typeof v === 'string' ? v : null);
  const hasMore = typeof paging.next === 'string';
  return {
    data,
    paging: { before: cursor(paging.cursors?.before), after: hasMore ? cursor(paging.cursors?.after) : null, hasMore },
  };
}

/** `{success: true}` answers (delete). */
export function expectSuccess(json: unknown): void {
  if (obj(json, 'answer').success !== true) throw bad('success is not true');
}

/** `POST /{app-id}/uploads` → `{id}`. */
export function toUploadSessionId(json: unknown): { id: string } {
  const id = str(obj(json, 'upload session'), 'id', 'upload session');
  if (!id.startsWith('upload:')) throw bad('upload session id does not start with upload:');
  return { id };
}

/** `POST /upload:<S>` → `{h}`. */
export function toUploadHandle(json: unknown): { h: string } {
  return { h: str(obj(json, 'upload'), 'h', 'upload') };
}

/** `GET /upload:<S>` → UploadSession. */
export function toUploadSession(json: unknown): UploadSession {
  const o = obj(json, 'upload session');
  const offset = Number(o.file_offset);
  if (!Number.isInteger(offset) || offset < 0) throw bad('file_offset is not a whole number');
  return { id: str(o, 'id', 'upload session'), file_offset: offset };
}

/** `POST /{phone-number-id}/messages` → SendMessageResult (one contact, one message). */
export function toSendMessageResult(json: unknown): SendMessageResult {
  const o = obj(json, 'send');
  const contacts = arr(o, 'contacts', 'send').map((c) => {
    const co = obj(c, 'contact');
    // A send to a BSUID answers with `user_id` and no `wa_id` (research §9); neither is needed for the send.
    const contact: SendMessageResult['contacts'][number] = { input: str(co, 'input', 'contact') };
    if (typeof co.wa_id === 'string') contact.wa_id = co.wa_id;
    if (typeof co.user_id === 'string') contact.user_id = co.user_id;
    return contact;
  });
  const messages = arr(o, 'messages', 'send').map((m) => {
    const mo = obj(m, 'message');
    const out: { id: string; message_status?: string } = { id: str(mo, 'id', 'message') };
    if (typeof mo.message_status === 'string') out.message_status = mo.message_status;
    return out;
  });
  if (messages.length === 0) throw bad('no message id');
  return { messaging_product: typeof o.messaging_product === 'string' ? o.messaging_product : 'whatsapp', contacts, messages };
}

const CONTACT_STATUSES = new Set(['valid', 'invalid', 'processing', 'failed']);

/** `POST /v1/contacts` → ContactStatus[]. */
export function toContactStatuses(json: unknown): ContactStatus[] {
  return arr(obj(json, 'contacts answer'), 'contacts', 'contacts answer').map((c) => {
    const co = obj(c, 'contact');
    const status = str(co, 'status', 'contact');
    if (!CONTACT_STATUSES.has(status)) throw bad(`contact status ${status}`);
    const out: ContactStatus = { input: str(co, 'input', 'contact'), status: status as ContactStatus['status'] };
    if (typeof co.wa_id === 'string') out.wa_id = co.wa_id;
    return out;
  });
}
