/** Display helpers. */

const numberFormat = new Intl.NumberFormat('en-US');

/** 12,345 */
export function fmtNumber(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : numberFormat.format(n);
}

/** "$0.2472" in a currency (up to four decimals, as list prices are written); "unknown" for null. */
export function fmtMoney(value: number | null, currency: string): string {
  if (value === null) return 'unknown';
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 4 }).format(value);
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

/** A length of time as people say it: 45 s, 5 min, 2 h 30 min, 3 days. */
export function fmtDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const min = Math.round(seconds / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  return `${Math.round(h / 24)} days`;
}
