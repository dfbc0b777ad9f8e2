/**
 * The number check (AGENDA → OPT_IN_*): the company's suppression list (opt-outs and numbers the network
 * called undeliverable, 131026), then the network's contacts check where it has one (the simulator's
 * On-Premises style `/v1/contacts`; the Cloud API has none and answers 404, which skips the check).
 */
import type { Kysely } from 'kysely';
import type { MessageStatus } from '../domain/message-states.js';
import { NetworkError, type ChannelCredentials, type NetworkPort } from '../network/port.js';
import type { MessageRow } from '../store/messages.js';
import type { Database } from '../store/schema.js';
import { findSuppressed } from '../store/sending.js';

/** One message's check result; RETRY when the check request failed (the caller retries or gives up). */
export interface NumberCheckResult {
  id: string;
  status: MessageStatus | 'RETRY';
  error_message: string | null;
  error_message_detail: string | null;
}

const CHUNK = 100;
/** How long a network that answered "no contacts check" (the Cloud API) is not asked again. */
const NO_CHECK_RECHECK_MS = 10 * 60_000;
const noCheckUntil = new WeakMap<NetworkPort, number>();

async function checkWithRetries(network: NetworkPort, creds: ChannelCredentials, numbers: string[], tries: number) {
  let last: unknown;
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    try {
      return await network.checkContacts(creds, numbers);
    } catch (error) {
      last = error;
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
    }
  }
  throw last;
}

/** Checks the numbers of one channel's claimed messages. */
export async function checkNumbers(
  deps: { db: Kysely<Database>; network: NetworkPort; checkTries?: number },
  creds: ChannelCredentials,
  companyId: string,
  messages: MessageRow[],
): Promise<NumberCheckResult[]> {
  const numbers = [...new Set(messages.map((m) => m.phone_number))];
  const suppressed = await findSuppressed(deps.db, companyId, numbers);
  const verdict = new Map<string, { status: MessageStatus | 'RETRY'; message: string | null; detail: string | null }>();
  for (const [number, reason] of suppressed) {
    verdict.set(number, { status: 'OPT_IN_FAILED_INVALID_NUMBER', message: 'Invalid Number', detail: `suppressed: ${reason}` });
  }
  const toCheck = (noCheckUntil.get(deps.network) ?? 0) > Date.now() ? [] : numbers.filter((n) => !suppressed.has(n));
  for (let i = 0; i < toCheck.length; i += CHUNK) {
    const chunk = toCheck.slice(i, i + CHUNK);
    try {
      const result = await checkWithRetries(deps.network, creds, chunk, deps.checkTries ?? 2);
      if (!result.available) {
        // The network has no check (the Cloud API): the send itself is the check; do not ask for a while.
        noCheckUntil.set(deps.network, Date.now() + NO_CHECK_RECHECK_MS);
        break;
      }
      const byInput = new Map(result.contacts.map((c) => [c.input, c]));
      for (const number of chunk) {
        const contact = byInput.get(number);
        if (contact?.status === 'invalid') {
          verdict.set(number, { status: 'OPT_IN_FAILED_INVALID_NUMBER', message: 'Invalid Number', detail: 'the network says the number is not on WhatsApp' });
        } else if (contact && contact.status !== 'valid') {
          verdict.set(number, { status: 'OPT_IN_FAILED', message: 'Number Check Failed', detail: `contacts check status ${contact.status}` });
        }
      }
    } catch (error) {
      const detail = error instanceof NetworkError ? `${error.kind}: ${error.message}` : String(error);
      for (const number of chunk) verdict.set(number, { status: 'RETRY', message: 'Number Check Failed', detail });
    }
  }
  return messages.map((m) => {
    const v = verdict.get(m.phone_number);
    return v
      ? { id: m.id, status: v.status, error_message: v.message, error_message_detail: v.detail }
      : { id: m.id, status: 'OPT_IN_SUCCESS', error_message: null, error_message_detail: null };
  });
}
