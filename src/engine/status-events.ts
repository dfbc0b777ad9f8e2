/**
 * Applies message status webhooks (`field: messages`, `value.statuses[]`) idempotently and in batches:
 * events are matched by wamid, or by our message id echoed in `biz_opaque_callback_data` (a status can
 * beat the commit of its own send); ranks never go down, time fields are set once, counters follow in
 * the same transaction. Events whose message is not found are kept and retried.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { DELIVERY_RANK, EVENT_STATUS, FAILED_STATUSES, statusAfterEvent, timeFieldAfterEvent, type MessageStatus } from '../domain/message-states.js';
import {
  applyEventUpdates,
  eventTimeOf,
  findMessagesForEvents,
  findMessagesForEventsById,
  type EventMovedRow,
  type EventUpdate,
  type StatusTarget,
} from '../store/message-status-events.js';
import { parsePricing } from '../domain/pricing/rate-card.js';
import type { Database } from '../store/schema.js';
import { noteStatusWebhooks } from '../store/channel-status-webhooks.js';
import { insertRejectedItems, type RejectedItem } from '../store/webhook-rejected-items.js';
import { statusItemProblem } from '../domain/webhook-items.js';
import { changePhoneNumberId } from '../domain/webhook-channels.js';
import { hasMessageStatusSubscribers } from '../store/webhook-endpoints.js';
import { suppressNumber } from '../store/opt-outs.js';
import { deletePendingStatusEvents, insertPendingStatusEvents, lockPendingStatusEvents, agePendingStatusEvents } from '../store/status-events.js';
import { applyCostMoves, applyCounterMoves } from './counters.js';
import type { ChangeHandler } from './webhook-inbox.js';
import { cleanContact, contactFor, statusParentUserId, statusPhone, statusUserId, statusUsername, type WebhookContact } from '../domain/webhook-recipients.js';
import { upsertRecipientLinks, type NewRecipientLink } from '../store/recipient-links.js';

/** One status object of a webhook. */
interface StatusObject {
  id?: unknown;
  status?: unknown;
  timestamp?: unknown;
  biz_opaque_callback_data?: unknown;
  errors?: Array<{ code?: unknown; title?: unknown; message?: unknown; error_data?: { details?: unknown } }>;
  pricing?: unknown;
  recipient_id?: unknown;
  recipient_user_id?: unknown;
  recipient_parent_user_id?: unknown;
  /**
   * The change's `contacts[]` entry for this recipient, kept with the status (also when it waits in
   * pending_status_events) so its ids are read with it; never part of the stored webhook_response.
   */
  tms_contact?: WebhookContact;
}

/** How long unmatched events are kept before they are dropped (s). */
const KEEP_UNMATCHED_SECONDS = 24 * 3600;

function eventTime(timestamp: unknown): string {
  const seconds = Number(timestamp);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString() : new Date().toISOString();
}

/** A status being applied, with what the rules read of it more than once, computed once. */
interface Item {
  s: StatusObject;
  event: MessageStatus;
  /** `Number(timestamp)`: a message's statuses are applied in this order. */
  order: number;
  /** When it happened (ISO). */
  at: string;
  /** The recipient's BSUID, parent BSUID and username (domain/webhook-recipients.ts; its phone number is read only for a link). */
  userId: string | null;
  parentUserId: string | null;
  username: string | null;
}

/** Rounds of read-compute-update for messages that changed between their read and their update. */
const ROUNDS = 3;

/** Whether the items are in event-time order already (a body's statuses mostly are): the sort and its copy are skipped. */
function inOrder(items: Item[]): boolean {
  for (let i = 1; i < items.length; i++) if (items[i - 1].order > items[i].order) return false;
  return true;
}

/**
 * Applies status objects; returns the ones whose message was not found (kept in pending_status_events and retried).
 *
 * The messages are read without a lock and updated by one guarded statement that locks them in id order; a message
 * another transaction changed in between is read again and its update recomputed, so the result is the one the
 * events give on the row as it is. When a client endpoint takes message status changes, a message with several
 * statuses in the batch moves one status per statement (the k-th statuses of all messages together), so each state it
 * passes through is its own row change, which the client-webhook outbox triggers see. Only the first statement waits for rows; every later one already holds rows, so
 * it skips rows another transaction holds rather than wait out of id order (lock order, src/store/README.md), and
 * statuses whose message could not be updated are returned with the unmatched ones, so they are kept and retried.
 *
 * Every status of every webhook passes here, so it keeps what it allocates per status small (the service runs with a
 * small young generation: garbage is paid in scavenges): the matched messages are indexes into the rows read, with
 * their statuses in an array beside them, no Map is walked entry by entry, and the loops over statuses are indexed
 * (a `for…of` allocates an iterator result per element until the optimising compiler has compiled the function, and a
 * handler that runs once per group of bodies gets there late).
 */
export async function applyStatuses(tx: Kysely<Database>, statuses: StatusObject[], atEnd?: (task: () => Promise<void>) => void): Promise<StatusObject[]> {
  const items: Item[] = [];
  const wamids: string[] = [];
  const callbacks: string[] = [];
  /** Event times by timestamp: the statuses of a body mostly share their second, and a Date per status is not free. */
  const times = new Map<unknown, string>();
  for (let n = 0; n < statuses.length; n++) {
    const s = statuses[n];
    if (typeof s.id !== 'string' || typeof s.status !== 'string' || !EVENT_STATUS[s.status]) continue;
    let at = times.get(s.timestamp);
    if (at === undefined) {
      at = eventTime(s.timestamp);
      if (typeof s.timestamp === 'string' || typeof s.timestamp === 'number') times.set(s.timestamp, at);
    }
    const contact = s.tms_contact;
    items.push({
      s, event: EVENT_STATUS[s.status], order: Number(s.timestamp ?? 0), at,
      userId: statusUserId(s, contact), parentUserId: statusParentUserId(s, contact), username: statusUsername(contact),
    });
    wamids.push(s.id);
    if (typeof s.biz_opaque_callback_data === 'string') callbacks.push(s.biz_opaque_callback_data);
  }
  if (items.length === 0) return [];
  const messages = await findMessagesForEvents(tx, wamids, callbacks);
  /** The rows read, by wamid (their index in `messages`); by id only once a status is matched by our id. */
  const byExt = new Map<string, number>();
  for (let i = 0; i < messages.length; i++) if (messages[i].ext_id) byExt.set(messages[i].ext_id!, i);
  let byId: Map<string, number> | undefined;
  /** The rows read, by our id: built the first time a status is matched by its callback or a row is read again. */
  const byIdMap = () => {
    if (byId === undefined) {
      byId = new Map();
      for (let k = 0; k < messages.length; k++) byId.set(messages[k].id, k);
    }
    return byId;
  };
  /** Each matched message's statuses, in event-time order (so the batch reaches the state of the events one by one). */
  const statusesOf: Array<Item[] | undefined> = new Array(messages.length);
  /** The matched messages (indexes into `messages`), in the order of their first status. */
  const matched: number[] = [];
  const unmatched: StatusObject[] = [];
  let several = false;
  if (!inOrder(items)) items.sort((a, b) => a.order - b.order);
  for (let n = 0; n < items.length; n++) {
    const item = items[n];
    const callback = item.s.biz_opaque_callback_data;
    let i = byExt.get(item.s.id as string);
    if (i === undefined && typeof callback === 'string') i = byIdMap().get(callback);
    if (i === undefined) {
      unmatched.push(item.s);
      continue;
    }
    const list = statusesOf[i];
    if (list) {
      list.push(item);
      several = true;
    } else {
      statusesOf[i] = [item];
      matched.push(i);
    }
  }
  // One status per step only when a message has several here and a client endpoint takes message status changes
  // (each state is then a change of its own for the outbox); otherwise one step applies all (fewer row versions).
  const stepwise = several && (await hasMessageStatusSubscribers(tx, [...new Set(matched.map((i) => messages[i].company_id))]));
  /** A matched message's statuses applied at a step: its step-th alone (stepwise), else all of them at step 0. */
  const stepCount = (i: number) => (stepwise ? statusesOf[i]!.length : 1);
  /** Index of a message among the rows read, for the rows read again (by id). */
  const indexOf = (id: string) => byIdMap().get(id)!;
  const moved: EventMovedRow[] = [];
  /** Messages one of whose steps could not be applied (index → step): their later steps wait with it. */
  const deferredFrom = new Map<number, number>();
  let first = true;
  for (let step = 0; ; step += 1) {
    /** The messages with a status at this step (indexes into `messages`). */
    const at: number[] = [];
    for (let n = 0; n < matched.length; n++) if (stepCount(matched[n]) > step && !deferredFrom.has(matched[n])) at.push(matched[n]);
    if (at.length === 0) break;
    // The first step uses the rows as read above; a later one reads them again (the step before changed them).
    let targets = step === 0 ? at.map((i) => messages[i]) : await findMessagesForEventsById(tx, at.map((i) => messages[i].id));
    /** The messages of the last round whose update did not apply (changed since read, or held): read again. */
    let open: string[] = [];
    for (let round = 1; ; round += 1) {
      const updates: EventUpdate[] = [];
      for (let k = 0; k < targets.length; k++) {
        const message = targets[k];
        const update = initialUpdate(message);
        // The rows as read first are in the order of `at`; rows read again are found by id.
        const list = statusesOf[step === 0 && round === 1 ? at[k] : indexOf(message.id)]!;
        if (stepwise) applyOne(update, list[step]);
        else for (let n = 0; n < list.length; n++) applyOne(update, list[n]);
        if (changes(update, message)) updates.push(clearFailureOnRecovery(clampTimes(update, message), message));
      }
      const applied = await applyEventUpdates(tx, updates, first);
      if (updates.length > 0) first = false;
      for (const m of applied) moved.push(m);
      // Each update applies at most once, so as many applied as sent is all of them (the usual case: no set built).
      open = applied.length === updates.length ? [] : notApplied(updates, applied);
      if (open.length === 0 || round === ROUNDS) break;
      // Changed since they were read: read again and recompute from what they hold now (one not found is dropped).
      targets = await findMessagesForEventsById(tx, open);
    }
    // Still changing after every round, or held by another transaction: kept and retried later from this status on.
    for (const id of open) deferredFrom.set(indexOf(id), step);
  }
  const deferred: StatusObject[] = [];
  for (const [i, step] of deferredFrom) for (const item of statusesOf[i]!.slice(step)) deferred.push(item.s);
  // The bulk sends' counters last (their rows are the most contended: every claim and hand-off updates them), at
  // the end of the transaction when the caller runs one (`atEnd`): a large batch then holds them for the end only.
  const counters = async () => {
    await applyCounterMoves(tx, moved);
    await applyCostMoves(tx, moved);
  };
  if (atEnd) atEnd(counters);
  else await counters();
  // An undeliverable number (131026) is suppressed with its applied failure.
  for (let n = 0; n < matched.length; n++) {
    const i = matched[n];
    const list = statusesOf[i]!;
    const end = deferredFrom.get(i) ?? list.length; // the statuses applied: those before a deferred step
    for (let k = 0; k < end; k++) {
      const item = list[k];
      if (item.event === 'BACKEND_FAILED' && item.s.errors?.some((e) => Number(e.code) === 131026)) {
        const m = messages[i];
        // The suppression list holds phone numbers; a BSUID the network does not know fails again on its own.
        if (m.phone_number) await suppressNumber(tx, m.company_id, m.phone_number, 'UNDELIVERABLE_131026');
        break;
      }
    }
  }
  await linkRecipients(tx, matched, statusesOf, messages);
  return deferred.length === 0 ? unmatched : [...unmatched, ...deferred];
}

/** The ids of the updates that did not apply. */
function notApplied(updates: EventUpdate[], applied: EventMovedRow[]): string[] {
  const done = new Set(applied.map((m) => m.id));
  return updates.filter((u) => !done.has(u.id)).map((u) => u.id);
}

/**
 * A status that names both a phone number and a BSUID shows they are one person: the link is recorded for the
 * message's company (rows in BSUID order), whether or not the status itself changed the message.
 */
async function linkRecipients(tx: Kysely<Database>, matched: number[], statusesOf: Array<Item[] | undefined>, messages: StatusTarget[]): Promise<void> {
  let byCompany: Map<string, NewRecipientLink[]> | undefined;
  for (let n = 0; n < matched.length; n++) {
    const i = matched[n];
    const list = statusesOf[i]!;
    for (let k = 0; k < list.length; k++) {
      const item = list[k];
      if (!item.userId) continue;
      const phone = statusPhone(item.s, item.s.tms_contact);
      if (!phone) continue;
      const companyId = messages[i].company_id;
      byCompany ??= new Map();
      const links = byCompany.get(companyId) ?? [];
      byCompany.set(companyId, links);
      links.push({ phone_number: phone, user_id: item.userId, parent_user_id: item.parentUserId, username: item.username, source: 'status_webhook' });
    }
  }
  if (byCompany === undefined) return;
  for (const [companyId, links] of [...byCompany].sort(([a], [b]) => (a < b ? -1 : 1))) await upsertRecipientLinks(tx, companyId, links);
}

const FUNNEL = ['backend_sended_time', 'sended_time', 'delivered_time', 'seen_time'] as const;

const SET_ONCE = [...FUNNEL, 'failed_time'] as const;

/** Whether an update changes anything (a duplicate event leaves the row, its version and counters alone). */
function changes(u: EventUpdate, m: StatusTarget): boolean {
  if (u.status !== m.status || (u.ext_id && !m.ext_id)) return true;
  if (u.pricing_rank !== null && u.pricing_rank > (m.pricing_rank ?? -1)) return true;
  if ((u.user_id && !m.user_id) || (u.parent_user_id && u.parent_user_id !== m.parent_user_id) || (u.username && u.username !== m.username)) return true;
  for (let i = 0; i < SET_ONCE.length; i++) if (u[SET_ONCE[i]] !== null && eventTimeOf(m, SET_ONCE[i]) === null) return true;
  return false;
}

/**
 * Event timestamps have one-second resolution while the hand-off time has milliseconds, so a step could
 * look earlier than the step before it; each new funnel time is raised to at least the previous one. When an event
 * is applied before the hand-off is marked (a bulk-send row's mark waits for its statuses, hand-off-marks.ts; or a
 * fast network), the hand-off is dated at the recorded send attempt, when this service sent the message (the
 * interface's `backend_sended_time`, in ms): the event's truncated second would put it later than that, or even
 * before the attempt and the row's due time.
 */
function clampTimes(u: EventUpdate, m: StatusTarget): EventUpdate {
  const attempted = eventTimeOf(m, 'send_attempted_at');
  let floor = attempted ?? 0;
  for (let i = 0; i < FUNNEL.length; i++) {
    const field = FUNNEL[i];
    const existing = eventTimeOf(m, field);
    if (existing !== null) {
      floor = Math.max(floor, existing);
      continue;
    }
    const value = u[field];
    if (!value) continue;
    // The hand-off, set by an event, is dated at the attempt (the first funnel time: nothing before it to raise it).
    if (field === 'backend_sended_time' && attempted !== null) {
      u[field] = new Date(attempted).toISOString();
      continue;
    }
    const at = Date.parse(value);
    // Already at or after the floor (the usual case): the time stays as it is, no new string is made.
    if (at >= floor) {
      floor = at;
      continue;
    }
    u[field] = new Date(floor).toISOString();
  }
  return u;
}

/**
 * A message that leaves a failed state (a send failed as OUTCOME_UNKNOWN that its real event moves up) is no
 * longer failed: its failure fields go, since the interface shows them only on failures.
 */
function clearFailureOnRecovery(u: EventUpdate, m: StatusTarget): EventUpdate {
  u.clear_failure = FAILED_STATUSES.includes(m.status) && !FAILED_STATUSES.includes(u.status);
  return u;
}

function initialUpdate(m: StatusTarget): EventUpdate {
  return {
    id: m.id,
    guard: m.guard,
    expected_status: m.status,
    status: m.status,
    reached_rank: m.reached_rank,
    ext_id: null,
    backend_sended_time: null,
    sended_time: null,
    delivered_time: null,
    seen_time: null,
    failed_time: null,
    error_message: null,
    error_message_detail: null,
    webhook_response: null,
    clear_failure: false,
    pricing_category: null,
    pricing_type: null,
    pricing_billable: null,
    pricing_model: null,
    pricing_rank: null,
    user_id: null,
    parent_user_id: null,
    username: null,
  };
}

/**
 * Keeps the pricing of the highest-ranked status that carries one (Meta sends it on `sent` and on one of
 * delivered/read): the stored pricing is the same whatever order the statuses arrive in, and never lost when its
 * status itself changes nothing (a late or repeated one).
 */
function takePricing(u: EventUpdate, s: StatusObject, event: MessageStatus): void {
  const pricing = parsePricing(s.pricing);
  const rank = DELIVERY_RANK[event];
  if (!pricing || rank === undefined || (u.pricing_rank !== null && rank <= u.pricing_rank)) return;
  u.pricing_category = pricing.category;
  u.pricing_type = pricing.type;
  u.pricing_billable = pricing.billable;
  u.pricing_model = pricing.pricing_model;
  u.pricing_rank = rank;
}

function applyOne(u: EventUpdate, item: Item): void {
  const { s, event, at } = item;
  u.ext_id = u.ext_id ?? (s.id as string);
  takePricing(u, s, event);
  u.user_id = u.user_id ?? item.userId;
  u.parent_user_id = item.parentUserId ?? u.parent_user_id;
  u.username = item.username ?? u.username;
  const next = statusAfterEvent(u.status, event);
  // A time field is filled when its event arrives, even late (it records when that step happened); a message the
  // network failed gains no delivered or seen time (timeFieldAfterEvent).
  const field = timeFieldAfterEvent(u.status, event);
  if (field) u[field] = u[field] ?? at;
  if (!next) return;
  // The payload that set the current state; a late or repeated event does not replace it.
  const { tms_contact: _contact, ...raw } = s;
  u.webhook_response = raw;
  u.status = next;
  u.reached_rank = Math.max(u.reached_rank, DELIVERY_RANK[next] ?? 0);
  if (next !== 'BACKEND_FAILED' && next !== 'BACKEND_DELETED') u.backend_sended_time = u.backend_sended_time ?? at;
  if (next === 'BACKEND_FAILED') {
    u.failed_time = u.failed_time ?? at;
    const error = s.errors?.[0];
    u.error_message = typeof error?.title === 'string' ? error.title : typeof error?.message === 'string' ? error.message : 'Failed';
    const details = typeof error?.error_data?.details === 'string' ? error.error_data.details : typeof error?.message === 'string' ? error.message : '';
    u.error_message_detail = [error?.code !== undefined ? String(error.code) : null, details].filter(Boolean).join(': ');
  }
}

/** A status with its change's `contacts[]` entry (none on a failed status, or when none names its recipient). */
function withContact(s: StatusObject, contacts: unknown): StatusObject {
  // No contacts (a failed status, or a body without them): nothing to read, nothing to copy.
  if (typeof s !== 'object' || s === null || !Array.isArray(contacts) || contacts.length === 0) return s;
  const contact = contactFor(contacts, { userId: s.recipient_user_id, phone: s.recipient_id });
  return contact ? { ...s, tms_contact: cleanContact(contact) } : s;
}

/** A channel's status-webhook mark is rewritten at most once a second (`noteStatusWebhooks`' own granularity). */
const NOTE_EVERY_MS = 1000;

/** The webhook handler for `field: messages`. */
export function messageStatusHandler(log?: Pick<Logger, 'warn'>): ChangeHandler {
  /** When this process last committed each channel's status-webhook mark (ms): a group within the second skips it. */
  const notedAt = new Map<string, number>();
  return async ({ tx, changes, afterCommit, atEnd }) => {
    // An item that cannot be applied is set apart with its reason; the items beside it are applied.
    const rejected: RejectedItem[] = [];
    const statuses: StatusObject[] = [];
    for (let c = 0; c < changes.length; c++) {
      const { value, nulFree } = changes[c];
      if (!Array.isArray(value.statuses)) continue;
      const items = value.statuses as unknown[];
      for (let i = 0; i < items.length; i++) {
        const s = items[i];
        const problem = statusItemProblem(s, nulFree);
        if (problem === undefined) statuses.push(withContact(s as StatusObject, value.contacts));
        else rejected.push({ field: 'statuses', phoneNumberId: changePhoneNumberId(value), reason: problem, item: s });
      }
    }
    if (rejected.length > 0) {
      log?.warn({ items: rejected.map((r) => ({ reason: r.reason, phoneNumberId: r.phoneNumberId })) }, 'webhook status items set apart: they cannot be applied');
      await insertRejectedItems(tx, rejected);
    }
    const unmatched = await applyStatuses(tx, statuses, atEnd);
    // The channels' status webhooks are alive (the stale-webhook alert); written last, after the message locks, and
    // not again for a channel this process marked less than a second ago (one statement and one row lock saved).
    const now = Date.now();
    const named = new Set<string>();
    for (const { value } of changes) {
      const id = Array.isArray(value.statuses) && value.statuses.length > 0 ? changePhoneNumberId(value) : null;
      if (id !== null) named.add(id);
    }
    const channels = [...named].filter((id) => now - (notedAt.get(id) ?? 0) >= NOTE_EVERY_MS);
    await noteStatusWebhooks(tx, channels);
    if (channels.length > 0) {
      afterCommit(async () => {
        for (const id of channels) notedAt.set(id, now);
      });
    }
    await insertPendingStatusEvents(
      tx,
      unmatched.map((s) => ({
        wamid: String(s.id),
        callback_data: typeof s.biz_opaque_callback_data === 'string' ? s.biz_opaque_callback_data : null,
        status: String(s.status),
        body: s,
      })),
    );
  };
}

/** Retries kept events (their message may have been committed since). */
export async function retryPendingStatusEvents(db: Kysely<Database>, log: Logger, limit = 500): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const pending = await lockPendingStatusEvents(tx, limit);
    if (pending.length === 0) return 0;
    const unmatched = new Set(await applyStatuses(tx, pending.map((p) => p.body as StatusObject)));
    const matchedIds = pending.filter((p) => !unmatched.has(p.body as StatusObject)).map((p) => p.id);
    await deletePendingStatusEvents(tx, matchedIds);
    await agePendingStatusEvents(tx, pending.filter((p) => unmatched.has(p.body as StatusObject)).map((p) => p.id), KEEP_UNMATCHED_SECONDS);
    if (matchedIds.length) log.info({ count: matchedIds.length }, 'kept status events matched their messages');
    return matchedIds.length;
  });
}
