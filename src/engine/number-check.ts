/**
 * The number check (AGENDA → OPT_IN_*). By default it is local only and makes no network call: the number must be
 * E.164 (else OPT_IN_FAILED_INVALID_NUMBER), not on the company's opt-out list, nor linked to a BSUID that is
 * (else OPT_IN_FAILED, detail RECIPIENT_OPTED_OUT; a MARKETING template also against the network's marketing
 * stops) and not a number the network called undeliverable with 131026 (OPT_IN_FAILED_INVALID_NUMBER).
 * A message's BSUID (or the phone number linked to it) on the opt-out list fails it the same way. The Cloud API has
 * no contacts check, so the send's own answer and status webhooks decide the rest.
 *
 * A rehearsal may enable the On-Premises style `POST /v1/contacts` check (dispatcher option `numberCheck:
 * 'contacts'`, env NUMBER_CHECK=contacts; the simulator must enable it too). Even then only a definite "invalid"
 * answer fails a row: a network without the check (Graph answers 400/100/33 there), an error, a timeout or an
 * answer of another shape lets the rows go on to the send, is logged, and that network is not asked again for a
 * while.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { MessageStatus } from '../domain/message-states.js';
import { OPTED_OUT_MESSAGE, optedOutDetail } from '../domain/opt-outs.js';
import { NetworkError, type ChannelCredentials, type NetworkPort } from '../network/port.js';
import type { DueMessageRow } from '../store/message-moves.js';
import type { Database } from '../store/schema.js';
import { findSuppressedRecipients, type Suppression } from '../store/opt-outs.js';
import { findMarketingTemplateIds } from '../store/templates.js';

/** How numbers are checked before a send: locally only (default), or also by the rehearsal-only contacts check. */
export type NumberCheckMode = 'local' | 'contacts';
/** The modes, for configuration. */
export const NUMBER_CHECK_MODES = ['local', 'contacts'] as const satisfies readonly NumberCheckMode[];

/** The dispatcher option that picks the mode (absent = local). */
export interface NumberCheckOptions {
  numberCheck?: NumberCheckMode;
}

/** One message's check result (the check never fails for a reason of its own: it cannot ask for a retry). */
export interface NumberCheckResult {
  id: string;
  status: MessageStatus;
  error_message: string | null;
  error_message_detail: string | null;
}

/** What the check needs; `options` is the dispatcher's options object. */
export interface NumberCheckDeps {
  db: Kysely<Database>;
  network: NetworkPort;
  log?: Pick<Logger, 'warn'>;
  options?: object & NumberCheckOptions;
}

const CHUNK = 100;
/** How long a network without a usable contacts check (or whose check failed) is not asked again. */
export const CONTACTS_PAUSE_MS = 10 * 60_000;
const contactsPausedUntil = new WeakMap<NetworkPort, number>();
/** E.164 as stored by intake: `+`, no leading 0, 8–15 digits. */
const E164 = /^\+[1-9]\d{7,14}$/;

type Verdict = { status: MessageStatus; message: string; detail: string };

/** Asks the contacts check for the numbers; returns the numbers the network says are invalid (none on any failure). */
async function invalidByContacts(deps: NumberCheckDeps, creds: ChannelCredentials, numbers: string[]): Promise<Set<string>> {
  const invalid = new Set<string>();
  for (let i = 0; i < numbers.length; i += CHUNK) {
    if ((contactsPausedUntil.get(deps.network) ?? 0) > Date.now()) break;
    const chunk = numbers.slice(i, i + CHUNK);
    try {
      const result = await deps.network.checkContacts(creds, chunk);
      if (!result.available) {
        contactsPausedUntil.set(deps.network, Date.now() + CONTACTS_PAUSE_MS);
        deps.log?.warn({ channelId: creds.phoneNumberId }, 'number check: the network has no contacts check; sending without it');
        break;
      }
      const byInput = new Map(result.contacts.map((c) => [c.input, c]));
      for (const number of chunk) if (byInput.get(number)?.status === 'invalid') invalid.add(number);
    } catch (error) {
      contactsPausedUntil.set(deps.network, Date.now() + CONTACTS_PAUSE_MS);
      const detail = error instanceof NetworkError ? `${error.kind}: ${error.message}` : String(error);
      deps.log?.warn({ channelId: creds.phoneNumberId, detail }, 'number check: the contacts check failed; sending without it for a while');
      break;
    }
  }
  return invalid;
}

/** Checks the numbers of one channel's claimed messages. */
export async function checkNumbers(
  deps: NumberCheckDeps,
  creds: ChannelCredentials,
  companyId: string,
  messages: DueMessageRow[],
): Promise<NumberCheckResult[]> {
  const verdict = new Map<string, Verdict>();
  const byUserId = new Map<string, Verdict>();
  // A BSUID has no format to check beyond intake's nor a contacts check: only the opt-out list answers for it here.
  const numbers = [...new Set(messages.map((m) => m.phone_number).filter((p): p is string => p !== null))];
  const userIds = [...new Set(messages.map((m) => m.user_id).filter((u): u is string => u !== null))];
  for (const number of numbers) {
    if (!E164.test(number)) verdict.set(number, { status: 'OPT_IN_FAILED_INVALID_NUMBER', message: 'Invalid Number', detail: 'not an E.164 number' });
  }
  const wellFormed = numbers.filter((n) => !verdict.has(n));
  const found = await findSuppressedRecipients(deps.db, companyId, { phones: wellFormed, userIds });
  const suppressed = found.phones;
  // An opted-out recipient is not invalid: it ends OPT_IN_FAILED with the stable RECIPIENT_OPTED_OUT detail.
  const verdictOf = (s: Suppression): Verdict =>
    s.kind === 'opted_out'
      ? { status: 'OPT_IN_FAILED', message: OPTED_OUT_MESSAGE, detail: optedOutDetail(s.reason, s.keyword) }
      : { status: 'OPT_IN_FAILED_INVALID_NUMBER', message: 'Invalid Number', detail: `suppressed: ${s.reason}` };
  for (const [number, s] of suppressed) verdict.set(number, verdictOf(s));
  for (const [userId, s] of found.userIds) byUserId.set(userId, verdictOf(s));
  // A MARKETING template's recipients are also checked against the network's marketing stops (user_preferences).
  const marketingIds = await findMarketingTemplateIds(deps.db, companyId, [...new Set(messages.map((m) => m.template_id))]);
  const marketing = messages.filter((m) => marketingIds.has(m.template_id));
  const stops = await findSuppressedRecipients(
    deps.db,
    companyId,
    {
      phones: [...new Set(marketing.map((m) => m.phone_number).filter((p): p is string => p !== null && !verdict.has(p)))],
      userIds: [...new Set(marketing.map((m) => m.user_id).filter((u): u is string => u !== null && !byUserId.has(u)))],
    },
    { marketing: true },
  );
  const stopOf = (s: Suppression | undefined): Verdict | undefined => (s?.kind === 'opted_out' ? verdictOf(s) : undefined);
  if (deps.options?.numberCheck === 'contacts') {
    const invalid = await invalidByContacts(deps, creds, wellFormed.filter((n) => !suppressed.has(n)));
    for (const number of invalid) {
      verdict.set(number, { status: 'OPT_IN_FAILED_INVALID_NUMBER', message: 'Invalid Number', detail: 'the network says the number is not on WhatsApp' });
    }
  }
  return messages.map((m) => {
    const own = (m.phone_number === null ? undefined : verdict.get(m.phone_number)) ?? (m.user_id === null ? undefined : byUserId.get(m.user_id));
    const stop = marketingIds.has(m.template_id)
      ? (stopOf(m.phone_number === null ? undefined : stops.phones.get(m.phone_number)) ?? stopOf(m.user_id === null ? undefined : stops.userIds.get(m.user_id)))
      : undefined;
    const v = own ?? stop;
    return v
      ? { id: m.id, status: v.status, error_message: v.message, error_message_detail: v.detail }
      : { id: m.id, status: 'OPT_IN_SUCCESS', error_message: null, error_message_detail: null };
  });
}
