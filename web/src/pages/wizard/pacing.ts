/** `total_time` (seconds to spread a bulk send over) in words, for the pacing step. */
import { MAX_TOTAL_TIME_SECONDS } from '../../../../src/domain/bulk-limits.js';

/** Preset choices: label and seconds. */
export const PACING_PRESETS: { label: string; seconds: number }[] = [
  { label: 'As fast as the channel allows', seconds: 0 },
  { label: 'Over 10 minutes', seconds: 600 },
  { label: 'Over 1 hour', seconds: 3600 },
  { label: 'Over 4 hours', seconds: 4 * 3600 },
  { label: 'Over 24 hours', seconds: 24 * 3600 },
];

/** Most seconds the service takes (30 days; declared once in the service's domain/bulk-limits.ts). */
export const MAX_TOTAL_TIME = MAX_TOTAL_TIME_SECONDS;

/** A duration in words: "45 s", "10 min", "1 h 30 min", "2 d 4 h". */
export function duration(seconds: number): string {
  if (seconds < 10) return `${Number(seconds.toFixed(1))} s`;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  if (s < 86400) return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
  return `${Math.floor(s / 86400)} d${Math.floor((s % 86400) / 3600) ? ` ${Math.floor((s % 86400) / 3600)} h` : ''}`;
}

/** What a total_time means for a number of messages. */
export function pacingText(totalTime: number, messages: number): string {
  if (totalTime === 0) {
    return 'Messages go out as fast as the channel allows: its speed (messages a second) and its messaging limit (new customers in any 24 hours).';
  }
  const gap = messages > 1 ? totalTime / messages : totalTime;
  const each = gap >= 1 ? `about one message every ${duration(gap)}` : `about ${Math.round(1 / gap)} messages per second`;
  return `The ${messages.toLocaleString('en-US')} message${messages === 1 ? '' : 's'} are spread evenly over ${duration(totalTime)}: ${each}. The channel's speed and messaging limit still apply, so a send may take longer.`;
}
