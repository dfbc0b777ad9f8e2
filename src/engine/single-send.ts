/**
 * The single send: checked in full before anything is stored (template APPROVED and of the channel's
 * WABA, parameters against the template, E.164 number, channel not blocked and its token not refused, recipient
 * not opted out, tier quota), then queued for the dispatcher, which hands it to the network at most once.
 *
 * Per request: the channel, the template and the opt-out are read in one statement (findSingleSendFacts), with
 * the caller's token when the HTTP layer left its live check to the request (http/auth.ts); the requests that
 * arrive while one such read runs are read together in the next (one statement for all of them). A
 * channel without a tier cap and a request without an Idempotency-Key need no transaction: their rows are stored
 * by a group insert (the rows of the requests that arrive while one insert runs go together in the next: one
 * statement and one commit for all of them; each request is answered after its row is committed). A capped
 * channel's quota and an idempotency answer still commit in one transaction with the row.
 *
 * A request to a channel and template whose facts a request of the same company read before (and that passed) is
 * checked against those rows and stored by one statement that checks them again (KnownFacts): the rows unchanged,
 * the token live, the recipient not opted out. So most requests make one group statement, not two, and wait for
 * one. A request that statement does not store, or that any check refuses on the rows known, goes the way above
 * from the start, so its answer and the order of its checks are those of a fresh read.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { authHoldReason, channelBlockReason, tierLimit } from '../domain/channel.js';
import { newId } from '../domain/ids.js';
import { parseRecipient, recipientIdentity, recipientLabel, sendTarget, type RecipientIds } from '../domain/recipients.js';
import { toNetworkComponents } from '../domain/templates/send-parameters.js';
import type { StoredComponents } from '../domain/templates/types.js';
import type { TemplateSendPayload } from '../network/port.js';
import { insertMessages, type NewMessage } from '../store/message-inserts.js';
import type { Database } from '../store/schema.js';
import {
  findSingleSendFacts, insertSingleSendsIfUnchanged, type RecheckedSingleSend, type SingleSendAnswer, type SingleSendAsk, type SingleSendFacts,
} from '../store/single-sends.js';
import {
  countWindowRecipients,
  findWindowRecipients,
  lockChannel,
  lockChannelWindowShared,
  readMaxConnections,
  readWindowUse,
  releaseTierHold,
  reserveWindowRecipients,
} from '../store/tier-window.js';
import { findTemplate, type TemplateRow } from '../store/templates.js';
import type { ChannelRow } from '../store/channels.js';
import { channelAuthError, freshChannel, healthIsFresh, refreshAhead, type ChannelHealthDeps } from './channel-health.js';

/** A single-send request. */
export interface SingleSendRequest {
  channelId: string;
  /** The phone number and/or the BSUID (`recipient`): at least one. */
  phoneNumber?: string;
  recipient?: string;
  templateId: string;
  fullName?: string;
  components?: unknown;
  /**
   * The caller's token, when no lookup checked it before the request: checked live (not revoked, of this company)
   * in the request's first read, before anything else; `revoked()` gives the error to answer when it is not.
   */
  token?: { hash: string; checked(): void; revoked(): Error };
}

/** What the single send needs. */
export interface SingleSendDeps {
  db: Kysely<Database>;
  health: ChannelHealthDeps;
  /** Called after the message is queued (wakes the dispatcher unless a sender already runs for the channel). */
  queued(channelId: string): void;
}

/** The template, if the caller may send it on this channel. */
export async function requireSendableTemplate(db: Kysely<Database>, companyId: string, wabaId: string, templateId: string): Promise<TemplateRow> {
  const template = await findTemplate(db, companyId, templateId, wabaId);
  if (!template) throw new AppError('NOT_FOUND', `Template ${templateId} was not found on this channel.`, { field: 'message_template_id' });
  if (template.status !== 'APPROVED') {
    throw new AppError('TEMPLATE_NOT_APPROVED', `Template ${template.name} is ${template.status}; only APPROVED templates can be sent.`, {
      field: 'message_template_id',
    });
  }
  return template;
}

/** The network's send payload for a template and its parameters (throws PARAMETERS_INVALID). */
export function buildPayload(template: TemplateRow, ids: RecipientIds, components: unknown, root: string): TemplateSendPayload {
  const network = toNetworkComponents(template.components as StoredComponents, components, root);
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...sendTarget(ids),
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      ...(network.length ? { components: network as TemplateSendPayload['template']['components'] } : {}),
    },
  };
}

/**
 * Queues one message; returns its id. `inTransaction` runs last in the transaction that stores the message
 * (the Idempotency-Key answer commits with the message, or neither does).
 */
export async function sendSingle(
  deps: SingleSendDeps,
  companyId: string,
  req: SingleSendRequest,
  inTransaction?: (tx: Kysely<Database>, id: string) => Promise<void>,
): Promise<string> {
  const who = parseRecipient(req.phoneNumber, req.recipient, { phone: 'phone_number', userId: 'recipient' });
  const ids: RecipientIds | null = who.ok ? { phone: who.phone, userId: who.userId } : null;
  if (ids && !inTransaction) {
    const stored = await sendOnKnownFacts(deps, companyId, req, ids);
    if (stored) return stored;
  }
  // The checks keep their order (and so which error a request with several faults gets): channel, token hold,
  // recipient, template, parameters, channel health, opt-out.
  const facts = await groupFactsReader(deps.db).read({ companyId, channelId: req.channelId, templateId: req.templateId, ids, tokenHash: req.token?.hash });
  req.token?.checked();
  if (facts === 'TOKEN_REVOKED') throw req.token!.revoked();
  if (!facts) throw new AppError('CHANNEL_NOT_FOUND', `Channel ${req.channelId} was not found.`, { field: 'channel_id' });
  // Stale health is read from the network (as readChannelHealth does).
  const channel = await freshChannel(deps.health, facts.channel);
  // A channel whose token the network refused answers 503 and stores nothing (queued sends wait for rotation).
  if (authHoldReason(channel)) throw channelAuthError(channel);
  if (!who.ok || !ids) throw new AppError('VALIDATION_FAILED', who.ok ? 'a recipient is required' : who.reason, { field: who.ok ? 'phone_number' : who.field });
  // A channel refreshed from the network may name another WABA: the template is read again for it.
  const template = channel.waba_id === facts.channel.waba_id
    ? sendableTemplate(facts.template, req.templateId)
    : await requireSendableTemplate(deps.db, companyId, channel.waba_id, req.templateId);
  const payload = buildPayload(template, ids, req.components, 'message_template');
  const blocked = channelBlockReason({ status: channel.status, qualityRating: channel.quality_rating, messagingLimitTier: channel.messaging_limit_tier });
  if (blocked) throw new AppError('CHANNEL_BLOCKED', `The channel cannot send: ${blocked}.`, { field: 'channel_id' });
  // An opted-out recipient (its phone number, its BSUID, or the one the network linked to either) is refused at
  // once and nothing is stored (an opt-out arriving after this check is still caught by the dispatcher's number
  // check: the message then ends OPT_IN_FAILED, RECIPIENT_OPTED_OUT).
  if (facts.optedOut) {
    throw new AppError('RECIPIENT_OPTED_OUT', `${recipientLabel(ids)} is on the company's opt-out list; nothing was sent.`, {
      field: ids.phone !== null ? 'phone_number' : 'recipient',
    });
  }
  // The tier window counts a person once: by the BSUID when one is known (given, or linked by the network), and an
  // entry under another identifier of the same person counts too.
  const { key, aliases } = recipientIdentity(ids, facts.linkedUserId, facts.linkedPhone);

  const row = messageRow(companyId, channel, template, ids, req, payload);
  const id = row.id;
  const limit = tierLimit(channel.messaging_limit_tier);
  // Facts read as they are stored (no refresh read the channel again) are known for the next requests.
  if (limit === null && channel === facts.channel && template === facts.template && facts.versions.template !== null) {
    knownFacts(deps.db).remember(companyId, req.templateId, facts, facts.versions.template);
  }
  if (limit === null && !inTransaction) {
    // Nothing to decide with the row: stored by the group insert.
    await groupInserter(deps.db).insert(row);
    deps.queued(channel.id);
    return id;
  }
  // A capped channel far from its quota: reserved under the window's shared lock, in parallel with other such
  // requests. At most `bound` transactions run at once, each reserving at most one slot, so when every one of
  // them saw `used + bound < limit` the window cannot pass the limit; nearer the limit the exclusive path decides.
  if (limit !== null) {
    const bound = await maxConnections(deps.db);
    const done = await deps.db.transaction().execute(async (tx) => {
      await lockChannelWindowShared(tx, channel.id);
      const use = await readWindowUse(tx, channel.id, [key, ...aliases]);
      if (!use.inWindow) {
        if (use.used + bound >= limit) return false;
        await reserveWindowRecipients(tx, channel.id, [key], undefined, [id]);
      }
      await releaseTierHold(tx, channel.id);
      await insertMessages(tx, [row]);
      await inTransaction?.(tx, id);
      return true;
    });
    if (done) {
      deps.queued(channel.id);
      return id;
    }
  }
  await deps.db.transaction().execute(async (tx) => {
    if (limit !== null) {
      await lockChannel(tx, channel.id);
      const inWindow = await findWindowRecipients(tx, channel.id, [key, ...aliases]);
      if (inWindow.size === 0) {
        if ((await countWindowRecipients(tx, channel.id)) >= limit) {
          throw new AppError('TIER_LIMIT_REACHED', undefined, { field: 'phone_number', retryAfter: 3600 });
        }
        await reserveWindowRecipients(tx, channel.id, [key], undefined, [id]);
      }
      // Its slot is in the window: a tier hold of the channel must not keep this row waiting.
      await releaseTierHold(tx, channel.id);
    }
    await insertMessages(tx, [row]);
    await inTransaction?.(tx, id);
  });
  deps.queued(channel.id);
  return id;
}

/** The message row of a checked single send (QUEUED, due now). */
function messageRow(companyId: string, channel: ChannelRow, template: TemplateRow, ids: RecipientIds, req: SingleSendRequest, payload: TemplateSendPayload): NewMessage {
  return {
    id: newId(),
    company_id: companyId,
    channel_id: channel.id,
    template_id: template.id,
    waba_id: channel.waba_id,
    send_wizard_id: null,
    row_no: null,
    phone_number: ids.phone,
    user_id: ids.userId,
    full_name: req.fullName ?? null,
    status: 'QUEUED',
    payload,
    due_at: new Date(),
  };
}

/**
 * Sends on the facts known for the request's channel and template: every check of sendSingle that rests on the
 * channel and template rows is made on them, and the row is stored only if the insert finds both rows unchanged,
 * the token live and the recipient not opted out (the checks that rest on anything else). Null when the facts are
 * not known, a check refuses, or the insert did not store the row: the request then goes the way of a fresh read.
 * Only for rows the group insert would store (no tier cap, no Idempotency-Key).
 */
async function sendOnKnownFacts(deps: SingleSendDeps, companyId: string, req: SingleSendRequest, ids: RecipientIds): Promise<string | null> {
  const known = knownFacts(deps.db);
  const facts = known.get(companyId, req.channelId, req.templateId);
  if (!facts) return null;
  const { channel, template } = facts;
  if (!healthIsFresh(deps.health, channel) || authHoldReason(channel) || tierLimit(channel.messaging_limit_tier) !== null) return null;
  refreshAhead(deps.health, channel);
  if (template.status !== 'APPROVED') return null;
  if (channelBlockReason({ status: channel.status, qualityRating: channel.quality_rating, messagingLimitTier: channel.messaging_limit_tier })) return null;
  let payload: TemplateSendPayload;
  try {
    payload = buildPayload(template, ids, req.components, 'message_template');
  } catch {
    return null;
  }
  const row = messageRow(companyId, channel, template, ids, req, payload);
  if (!(await groupRecheckedInsert(deps.db).call({ row, versions: facts.versions, tokenHash: req.token?.hash }))) {
    known.forget(companyId, req.channelId, req.templateId);
    return null;
  }
  req.token?.checked();
  deps.queued(channel.id);
  return row.id;
}

/** The template read with the channel, if the caller may send it (the errors of requireSendableTemplate). */
function sendableTemplate(template: TemplateRow | undefined, templateId: string): TemplateRow {
  if (!template) throw new AppError('NOT_FOUND', `Template ${templateId} was not found on this channel.`, { field: 'message_template_id' });
  if (template.status !== 'APPROVED') {
    throw new AppError('TEMPLATE_NOT_APPROVED', `Template ${template.name} is ${template.status}; only APPROVED templates can be sent.`, {
      field: 'message_template_id',
    });
  }
  return template;
}

/** Requests per group statement at most (a larger backlog goes in several statements, one after the other). */
const GROUP_MAX = 500;

/**
 * Calls of one statement that arrive while it runs wait and then go together in the next run (one statement, one
 * round trip, and for a write one commit and one WAL flush, for all of them). Each caller's promise settles with its
 * own answer, or its own error: a group that fails is run again item by item, so one bad item fails alone.
 */
class StatementGroup<In, Out> {
  private waiting: Array<{ item: In; resolve: (out: Out) => void; reject: (error: unknown) => void }> = [];
  private running = false;

  /** `run` answers its items in order. */
  constructor(private readonly run: (items: In[]) => Promise<Out[]>) {}

  call(item: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length > 0) {
        const group = this.waiting.splice(0, GROUP_MAX);
        try {
          const outs = await this.run(group.map((g) => g.item));
          group.forEach((g, i) => g.resolve(outs[i]));
        } catch (error) {
          if (group.length === 1) {
            group[0].reject(error);
            continue;
          }
          for (const g of group) {
            await this.run([g.item]).then((outs) => g.resolve(outs[0]), g.reject);
          }
        }
      }
    } finally {
      this.running = false;
    }
  }
}

/**
 * Group insert of single-send rows: while one insert statement runs, the rows that arrive wait and then go
 * together in the next (one statement, one commit, one WAL flush for all). Each caller's promise settles when its
 * row is committed, or with its own error: a group that fails is retried row by row, so one bad row fails alone.
 */
export class GroupInserter {
  private readonly group: StatementGroup<NewMessage, void>;

  constructor(db: Kysely<Database>) {
    this.group = new StatementGroup<NewMessage, void>(async (rows) => {
      await insertMessages(db, rows);
      return rows.map(() => undefined);
    });
  }

  /** Stores one row; resolves once it is committed. */
  insert(row: NewMessage): Promise<void> {
    return this.group.call(row);
  }
}

/**
 * Group read of single sends' facts (findSingleSendFacts): the requests that arrive while one read runs are read
 * together in the next. Each request's token is still checked live, by a read that starts after the request came.
 */
export class GroupFactsReader {
  private readonly group: StatementGroup<SingleSendAsk, SingleSendAnswer>;

  constructor(db: Kysely<Database>) {
    this.group = new StatementGroup((asks) => findSingleSendFacts(db, asks));
  }

  /** One request's facts. */
  read(ask: SingleSendAsk): Promise<SingleSendAnswer> {
    return this.group.call(ask);
  }
}

/** Channels and templates known per process at most (the oldest known is forgotten first). */
const KNOWN_MAX = 1000;

/**
 * The channel and template rows of requests that passed their checks, per company, channel and template id, with
 * the rows' versions: what a later request to the same pair is checked against (sendOnKnownFacts). Nothing here
 * is trusted on its own: the insert stores a row only while both rows still have these versions.
 */
export class KnownFacts {
  private readonly facts = new Map<string, { channel: ChannelRow; template: TemplateRow; versions: { channel: string; template: string } }>();

  get(companyId: string, channelId: string, templateId: string) {
    return this.facts.get(knownKey(companyId, channelId, templateId));
  }

  remember(companyId: string, templateId: string, facts: SingleSendFacts, templateVersion: string): void {
    if (!facts.template) return;
    const key = knownKey(companyId, facts.channel.id, templateId);
    this.facts.delete(key);
    if (this.facts.size >= KNOWN_MAX) this.facts.delete(this.facts.keys().next().value!);
    this.facts.set(key, { channel: facts.channel, template: facts.template, versions: { channel: facts.versions.channel, template: templateVersion } });
  }

  forget(companyId: string, channelId: string, templateId: string): void {
    this.facts.delete(knownKey(companyId, channelId, templateId));
  }
}

const knownKey = (companyId: string, channelId: string, templateId: string) => `${companyId}\n${channelId}\n${templateId}`;

const inserters = new WeakMap<Kysely<Database>, GroupInserter>();
/**
 * Group insert of single sends decided on known facts (insertSingleSendsIfUnchanged): one statement for the rows
 * that arrive while one runs; each caller learns whether its row was stored.
 */
const recheckedInserts = new WeakMap<Kysely<Database>, StatementGroup<RecheckedSingleSend, boolean>>();
const knownFactsOf = new WeakMap<Kysely<Database>, KnownFacts>();
const factsReaders = new WeakMap<Kysely<Database>, GroupFactsReader>();
const connectionBounds = new WeakMap<Kysely<Database>, Promise<number>>();

/** The database's max_connections, read once per handle. */
function maxConnections(db: Kysely<Database>): Promise<number> {
  let bound = connectionBounds.get(db);
  if (!bound) {
    bound = readMaxConnections(db);
    connectionBounds.set(db, bound);
    bound.catch(() => connectionBounds.delete(db));
  }
  return bound;
}

/** The database handle's own instance of a group (one per handle, so per process and database). */
function perHandle<T>(groups: WeakMap<Kysely<Database>, T>, db: Kysely<Database>, make: (db: Kysely<Database>) => T): T {
  let group = groups.get(db);
  if (!group) {
    group = make(db);
    groups.set(db, group);
  }
  return group;
}

const groupFactsReader = (db: Kysely<Database>) => perHandle(factsReaders, db, (d) => new GroupFactsReader(d));
const groupInserter = (db: Kysely<Database>) => perHandle(inserters, db, (d) => new GroupInserter(d));
const groupRecheckedInsert = (db: Kysely<Database>) =>
  perHandle(recheckedInserts, db, (d) => new StatementGroup((sends: RecheckedSingleSend[]) => insertSingleSendsIfUnchanged(d, sends)));
const knownFacts = (db: Kysely<Database>) => perHandle(knownFactsOf, db, () => new KnownFacts());
