/** Display helpers. */

const numberFormat = new Intl.NumberFormat('en-US');

/** 12,345 */
export function fmtNumber(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : numberFormat.format(n);
}

/** A date and time in the browser's locale, or a dash. */
export function fmtTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** "in 3 h 5 min" / "5 min ago" relative to now. */
export function fmtRelative(value: string | number | null | undefined, now = Date.now()): string {
  if (value === null || value === undefined) return '—';
  const ms = new Date(value).getTime() - now;
  const abs = Math.abs(ms);
  const min = Math.round(abs / 60_000);
  const text = min < 1 ? 'less than a minute' : min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

/** Human titles of message statuses (the interface's states table). */
export const MESSAGE_STATUS_TITLES: Record<string, string> = {
  NONE: 'In Queue',
  CANCELLED: 'Cancelled',
  QUEUED: 'Queued',
  AGENDA: 'Agenda',
  OPT_IN_SUCCESS: 'Number Checked Success',
  OPT_IN_FAILED: 'Number Check Failed',
  OPT_IN_FAILED_INVALID_NUMBER: 'Invalid Number',
  SENT_TO_BACKEND: 'Send To Backend',
  SENT_TO_BACKEND_FAILED: 'Send To Backend Failed',
  BACKEND_DELIVERED: 'Delivered',
  BACKEND_SEEN: 'Seen',
  BACKEND_SENT: 'Sent',
  BACKEND_FAILED: 'Failed',
  BACKEND_DELETED: 'Deleted',
};

/** A tier name as people say it: TIER_2K -> 2K / 24 h. */
export function tierLabel(tier: string): string {
  if (tier === 'TIER_UNLIMITED' || tier === 'UNLIMITED') return 'Unlimited';
  const m = /^TIER_(.+)$/.exec(tier);
  return m && m[1] !== 'NOT_SET' ? `${m[1]} / 24 h` : tier === 'TIER_NOT_SET' ? 'Not set' : tier;
}
