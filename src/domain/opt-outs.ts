/**
 * Opt-out rules: where an entry of the suppression list comes from, the keywords a customer's
 * reply is matched against, how a reply's text is read from an inbound `messages` webhook, and the stable error a
 * suppressed row ends with.
 */

/** Where an opt-out came from. */
export const OPT_OUT_SOURCES = ['api', 'import', 'inbound_keyword', 'user_preferences'] as const;
/** One of OPT_OUT_SOURCES. */
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/** The keywords of a company that has not set its own (the usual carrier set: STOP and its common variants). */
export const DEFAULT_OPT_OUT_KEYWORDS: readonly string[] = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'OPT OUT'];

/** At most this many keywords per company, each at most this long (after normalising). */
export const KEYWORD_LIMITS = { maxKeywords: 50, maxLength: 64 } as const;

/** The stable code of a row (or single send) refused because its recipient opted out. */
export const OPTED_OUT_CODE = 'RECIPIENT_OPTED_OUT';
/** `error_message` of such a row. */
export const OPTED_OUT_MESSAGE = 'Recipient opted out';

/** `error_message_detail` of such a row: the stable code first, then where the opt-out came from. */
export function optedOutDetail(source: string, keyword: string | null): string {
  const how =
    source === 'inbound_keyword' ? `replied ${keyword ?? 'an opt-out keyword'}`
    : source === 'import' ? 'imported to the opt-out list'
    : source === 'user_preferences' ? 'stopped marketing messages in WhatsApp'
    : 'added to the opt-out list';
  return `${OPTED_OUT_CODE}: the recipient is on the company's opt-out list (${how})`;
}

/**
 * A keyword or reply as it is compared: Unicode NFKC, trimmed, inner whitespace runs as one space, upper case
 * (locale-independent). "  stop " and "Stop" both read "STOP"; "opt   out" reads "OPT OUT".
 */
export function normalizeKeyword(text: string): string {
  return text.normalize('NFKC').trim().replace(/\s+/gu, ' ').toUpperCase();
}

/** The keyword the whole reply is (after normalising both), or null: "STOP please" is not "STOP". */
export function matchKeyword(reply: string, keywords: readonly string[]): string | null {
  const text = normalizeKeyword(reply);
  if (text === '') return null;
  return keywords.find((k) => normalizeKeyword(k) === text) ?? null;
}

/** A keyword list as stored (normalised, in the given order) or the problems with it, each with its index. */
export function checkKeywords(input: readonly string[]): { ok: true; keywords: string[] } | { ok: false; problems: Array<{ index: number; message: string }> } {
  const problems: Array<{ index: number; message: string }> = [];
  const seen = new Map<string, number>();
  const keywords: string[] = [];
  if (input.length > KEYWORD_LIMITS.maxKeywords) return { ok: false, problems: [{ index: -1, message: `at most ${KEYWORD_LIMITS.maxKeywords} keywords` }] };
  input.forEach((raw, index) => {
    const k = normalizeKeyword(raw);
    if (k === '') problems.push({ index, message: 'a keyword cannot be empty or only spaces' });
    else if (k.length > KEYWORD_LIMITS.maxLength) problems.push({ index, message: `a keyword has at most ${KEYWORD_LIMITS.maxLength} characters` });
    else if (seen.has(k)) problems.push({ index, message: `repeats keyword ${seen.get(k)} (${k}); keywords match case-insensitively` });
    else {
      seen.set(k, index);
      keywords.push(k);
    }
  });
  return problems.length ? { ok: false, problems } : { ok: true, keywords };
}

/** One item of `value.messages[]` of an inbound `messages` webhook (the fields read here). */
export interface InboundMessage {
  from?: unknown;
  id?: unknown;
  type?: unknown;
  text?: { body?: unknown };
  button?: { text?: unknown; payload?: unknown };
  interactive?: { type?: unknown; button_reply?: { title?: unknown } };
}

/**
 * The text a customer replied with, or null for a reply that carries none (image, reaction, location...): a text
 * message's `text.body`, a template quick-reply button's `button.text`, an interactive reply button's title.
 */
export function replyText(message: InboundMessage): string | null {
  if (message.type === 'text' && typeof message.text?.body === 'string') return message.text.body;
  if (message.type === 'button' && typeof message.button?.text === 'string') return message.button.text;
  if (message.type === 'interactive' && message.interactive?.type === 'button_reply' && typeof message.interactive.button_reply?.title === 'string') {
    return message.interactive.button_reply.title;
  }
  return null;
}
