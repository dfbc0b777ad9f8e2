/**
 * Bounded waits: how long a message may wait for its first status event or in the queue of a
 * blocked channel before it ends failed with a clear error, and when a channel's status webhooks look stale.
 * Pure rules; the dispatcher's maintenance applies them.
 */

/** `error_message` of a handed-off message that no status event reached within the wait. */
export const NO_STATUS_ERROR = 'No status from the network';

/** `error_message` of a queued message whose channel stayed blocked past the queue wait. */
export const QUEUE_EXPIRED_ERROR = 'Not sent: the channel stayed blocked';

/** `error_message_detail` of a message failed for want of a status event. */
export function noStatusDetail(waitSeconds: number): string {
  return `The network accepted the message but no status event arrived within ${waitSeconds} s of the hand-off ` +
    '(status webhooks missing or expired); a late status event still updates this message.';
}

/** `error_message_detail` of a queued message failed because its channel stayed blocked. */
export function queueExpiredDetail(waitSeconds: number, reason: string): string {
  return `Waited more than ${waitSeconds} s in the queue while the channel was blocked (${reason}); never sent.`;
}

/**
 * Since when a channel's status webhooks look stale, or null: messages have awaited a status event for at least
 * `alertSeconds` and no status webhook arrived for the channel in that time. The moment returned is the later of
 * the oldest awaiting hand-off and the last status webhook.
 */
export function statusWebhooksStaleSince(
  oldestAwaitingAt: Date | null,
  lastStatusAt: Date | null,
  alertSeconds: number,
  now: number = Date.now(),
): Date | null {
  if (!oldestAwaitingAt) return null;
  const since = Math.max(oldestAwaitingAt.getTime(), lastStatusAt?.getTime() ?? 0);
  return now - since >= alertSeconds * 1000 ? new Date(since) : null;
}
