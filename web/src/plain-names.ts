/**
 * Plain names: what a person reads for every code the API answers (message and bulk-send statuses, channel
 * status, quality and tier, template status and category, the report counters). One module for every page,
 * the wizard included. The raw code stays available: `plainX(code)` gives the name, `<Plain>` shows it with
 * the code on hover (title) and for screen readers, and exports keep the codes.
 *
 * Message statuses follow what the customer sees in WhatsApp, not the interface's titles. The service maps
 * the network's `sent` (accepted by WhatsApp's servers) to BACKEND_DELIVERED, `delivered` (on the phone) to
 * BACKEND_SENT and `read` to BACKEND_SEEN, so here BACKEND_DELIVERED is "Sent", BACKEND_SENT is "Delivered"
 * and BACKEND_SEEN is "Read" — the order WhatsApp Manager uses: sent → delivered → read.
 */

import { ratePercent } from '../../src/domain/send-stats.js';
import type { SendWizard } from './api-types';

/** One plain name with a one-line explanation (shown as a hint). */
export interface PlainName {
  name: string;
  hint: string;
}

/** Message statuses (the 14 states of a message). */
export const MESSAGE_STATUS_NAMES: Record<string, PlainName> = {
  NONE: { name: 'Not started', hint: 'Stored; its bulk send has not started yet' },
  QUEUED: { name: 'Queued', hint: 'Waiting for its turn on the channel' },
  AGENDA: { name: 'Preparing', hint: 'Taken by the sender, being checked before it goes out' },
  OPT_IN_SUCCESS: { name: 'Sending', hint: 'Checked; being handed to WhatsApp' },
  OPT_IN_FAILED: { name: 'Number check failed', hint: 'The number could not be checked; not sent' },
  OPT_IN_FAILED_INVALID_NUMBER: { name: 'Invalid number', hint: 'Not a WhatsApp number, malformed, or opted out; not sent' },
  SENT_TO_BACKEND: { name: 'Handed to WhatsApp', hint: 'WhatsApp took the request; its answer has not come yet' },
  SENT_TO_BACKEND_FAILED: { name: 'Not sent', hint: 'WhatsApp refused the request, or no answer came in time' },
  BACKEND_DELIVERED: { name: 'Sent', hint: "Accepted by WhatsApp's servers (WhatsApp's “sent”)" },
  BACKEND_SENT: { name: 'Delivered', hint: "On the customer's phone (WhatsApp's “delivered”)" },
  BACKEND_SEEN: { name: 'Read', hint: "Opened by the customer (WhatsApp's “read”)" },
  BACKEND_FAILED: { name: 'Failed', hint: 'WhatsApp could not deliver it' },
  BACKEND_DELETED: { name: 'Deleted', hint: 'Deleted by the customer' },
  CANCELLED: { name: 'Cancelled', hint: 'Its bulk send was stopped before it went out' },
};

/** The message statuses in the order a message goes through them (for filters and legends). */
export const MESSAGE_STATUS_ORDER = [
  'NONE', 'QUEUED', 'AGENDA', 'OPT_IN_SUCCESS', 'SENT_TO_BACKEND', 'BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN',
  'BACKEND_FAILED', 'SENT_TO_BACKEND_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER', 'OPT_IN_FAILED', 'BACKEND_DELETED', 'CANCELLED',
] as const;

/** Bulk-send statuses. */
export const SEND_STATUS_NAMES: Record<string, PlainName> = {
  PENDING: { name: 'Preparing', hint: 'Its rows are being stored' },
  SCHEDULED: { name: 'Scheduled', hint: 'Starts by itself at the scheduled time' },
  RUNNING: { name: 'Sending', hint: 'Messages are going out' },
  PAUSED: { name: 'On hold', hint: 'Held by the service (channel blocked or tier limit reached); resumes by itself' },
  PAUSED_BY_USER: { name: 'Paused', hint: 'Paused by a user; nothing goes out until it is resumed' },
  STOPPED: { name: 'Stopped', hint: 'Stopped by a user; messages not yet sent were cancelled' },
  COMPLETED: { name: 'Finished', hint: 'Every message has its outcome (read receipts may still arrive)' },
};

/** Channel (phone number) statuses. */
export const CHANNEL_STATUS_NAMES: Record<string, PlainName> = {
  CONNECTED: { name: 'Connected', hint: 'The number can send' },
  PENDING: { name: 'Pending', hint: 'The number is being set up' },
  FLAGGED: { name: 'Flagged', hint: 'WhatsApp flagged the number for low quality; sends wait until it is unflagged' },
  RESTRICTED: { name: 'Restricted', hint: 'WhatsApp restricted the number; it cannot send for now' },
  RATE_LIMITED: { name: 'Rate limited', hint: 'WhatsApp slows this number down for now' },
  BANNED: { name: 'Banned', hint: 'WhatsApp banned the number' },
  DELETED: { name: 'Deleted', hint: 'The number was deleted' },
  MIGRATED: { name: 'Migrated', hint: 'The number moved to another account' },
  DISCONNECTED: { name: 'Disconnected', hint: 'The number is not connected' },
  UNVERIFIED: { name: 'Unverified', hint: 'The number is not verified yet' },
  OFFLINE: { name: 'Offline', hint: 'The number is offline' },
  UNKNOWN: { name: 'Unknown', hint: 'WhatsApp has not reported a status' },
};

/** Quality ratings as WhatsApp Manager names them. */
export const QUALITY_NAMES: Record<string, PlainName> = {
  GREEN: { name: 'High quality', hint: 'Customers react well to this number' },
  YELLOW: { name: 'Medium quality', hint: 'Customers have blocked or reported some messages' },
  RED: { name: 'Low quality', hint: 'Many blocks or reports; sends wait until it improves' },
  NA: { name: 'Quality not rated', hint: 'Not rated yet' },
  UNKNOWN: { name: 'Quality not rated', hint: 'Not rated yet' },
};

/** Template review statuses. */
export const TEMPLATE_STATUS_NAMES: Record<string, PlainName> = {
  APPROVED: { name: 'Approved', hint: 'Ready to send' },
  PENDING: { name: 'In review', hint: 'WhatsApp is reviewing it' },
  REJECTED: { name: 'Rejected', hint: 'WhatsApp refused it' },
  PAUSED: { name: 'Paused', hint: 'Paused by WhatsApp for low quality' },
  DISABLED: { name: 'Disabled', hint: 'Disabled by WhatsApp' },
  IN_APPEAL: { name: 'In appeal', hint: 'A rejection is being appealed' },
  PENDING_DELETION: { name: 'Being deleted', hint: 'Deleted; WhatsApp is removing it' },
  LIMIT_EXCEEDED: { name: 'Limit exceeded', hint: 'The account has too many templates' },
};

/** Template categories. */
export const CATEGORY_NAMES: Record<string, PlainName> = {
  MARKETING: { name: 'Marketing', hint: 'Offers, news and reminders' },
  UTILITY: { name: 'Utility', hint: 'Updates about an order or account' },
  AUTHENTICATION: { name: 'Authentication', hint: 'One-time passcodes' },
};

/** A code with no plain name is shown as it is, words instead of underscores. */
function fallback(code: string): PlainName {
  const words = code.toLowerCase().replace(/_/g, ' ');
  return { name: words.charAt(0).toUpperCase() + words.slice(1), hint: code };
}

/** The plain name of a code in a table (its own words when the table lacks it). */
export function plain(table: Record<string, PlainName>, code: string | null | undefined): PlainName {
  if (code === null || code === undefined || code === '') return { name: '—', hint: '' };
  return table[code] ?? fallback(code);
}

/** The service's reason (blocked_reason) in plain words, with what it means for sending. */
export function explainBlock(reason: string): string {
  if (reason === 'channel quality rating is RED') return 'the quality rating is low; sends wait until it improves.';
  if (reason.startsWith('channel status is ')) {
    const status = reason.slice('channel status is '.length);
    return `${plain(CHANNEL_STATUS_NAMES, status).hint.replace(/^The number/, 'the number')}.`;
  }
  return `${reason}. Sends wait and are retried after a back-off (rotate the access token with tms channel update if it expired).`;
}

/** "Read" for BACKEND_SEEN. */
export const messageStatusName = (code: string) => plain(MESSAGE_STATUS_NAMES, code).name;
/** "Sending" for RUNNING. */
export const sendStatusName = (code: string) => plain(SEND_STATUS_NAMES, code).name;

/** A tier as people say it: TIER_1K → "1,000 customers a day", TIER_UNLIMITED → "Unlimited". */
export function tierName(tier: string | null | undefined): string {
  if (!tier || tier === 'TIER_NOT_SET' || tier === 'UNKNOWN') return 'Tier not set';
  if (tier === 'TIER_UNLIMITED' || tier === 'UNLIMITED') return 'Unlimited';
  const m = /^TIER_(\d+)(K?)$/.exec(tier);
  if (!m) return fallback(tier).name;
  const n = Number(m[1]) * (m[2] ? 1000 : 1);
  return `${new Intl.NumberFormat('en-US').format(n)} customers a day`;
}

/**
 * The funnel of a bulk send in WhatsApp's order, from the report counters: `delivered_count` counts rows
 * that reached BACKEND_DELIVERED (WhatsApp's "sent"), `sent_count` BACKEND_SENT ("delivered"), `seen_count`
 * BACKEND_SEEN ("read"). The keys are the counters' names, so a stage can be matched to the API.
 */
export const FUNNEL_STAGES = [
  { counter: 'delivered_count', name: 'Sent', hint: "Accepted by WhatsApp's servers" },
  { counter: 'sent_count', name: 'Delivered', hint: "On the customer's phone" },
  { counter: 'seen_count', name: 'Read', hint: 'Opened by the customer' },
] as const;

/** The counters before the funnel: rows not yet with WhatsApp. */
export const PRE_FUNNEL_STAGES = [
  { counter: 'waiting', name: 'Not started', hint: 'Stored; the send has not started' },
  { counter: 'queued', name: 'Queued', hint: 'Waiting for their turn on the channel' },
  { counter: 'awaiting_backend_count', name: 'Handed to WhatsApp', hint: "Waiting for WhatsApp's answer" },
] as const;

/** The report counters a funnel reads (of a reports list item). */
export type FunnelCounts = Pick<SendWizard, 'delivered_count' | 'sent_count' | 'seen_count' | 'failed_count'>;

/** A share as a percentage with one decimal, or null when the base is 0 (the server's own rule). */
export const rate = ratePercent;

/**
 * The rates WhatsApp Manager shows: delivered ÷ sent and read ÷ delivered (in the plain names above; with
 * the counters: sent_count ÷ delivered_count and seen_count ÷ sent_count).
 */
export function funnelRates(c: FunnelCounts): { delivered: number | null; read: number | null } {
  return { delivered: rate(c.sent_count, c.delivered_count), read: rate(c.seen_count, c.sent_count) };
}

/** "93.5 %" or "—". */
export function fmtRate(value: number | null): string {
  return value === null ? '—' : `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })} %`;
}

/** The events a client webhook endpoint can subscribe to (docs/webhooks-out.md). */
export const WEBHOOK_EVENT_NAMES: Record<string, PlainName> = {
  'message.status_changed': { name: 'Message status changes', hint: 'Every change of a message’s status (queued, sent, delivered, read, failed …)' },
  'bulk_send.status_changed': { name: 'Bulk send status changes', hint: 'A bulk send started, paused, resumed, finished or was stopped' },
  '*': { name: 'Every event', hint: 'All events, also kinds added later' },
};

export { deliveryStateName, explainDeliveryError } from './webhook-words';
