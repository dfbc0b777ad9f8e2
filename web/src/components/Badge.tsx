/** A colour-coded label. The colour only repeats the text, so it never carries meaning alone. */
import type { ComponentChildren } from 'preact';
import { plain, type PlainName } from '../plain-names';

/** Badge colours (see .badge.* in styles.css). */
export type Tone = 'green' | 'yellow' | 'red' | 'blue' | 'grey' | 'purple';

export function Badge({ tone, label, title, code, children }: { tone: Tone; label?: string; title?: string; code?: string; children: ComponentChildren }) {
  return (
    <span class={`badge ${tone}`} title={title ?? label} data-code={code}>
      {label && <span class="visually-hidden">{label}: </span>}
      {children}
    </span>
  );
}

/**
 * A code shown by its plain name (plain-names.ts): the code and its meaning on hover, the code in `data-code`.
 * Screen readers hear the label and the plain name.
 */
export function PlainBadge({ tone, label, names, code }: { tone: Tone; label?: string; names: Record<string, PlainName>; code: string }) {
  const p = plain(names, code);
  return <Badge tone={tone} label={label} title={`${p.hint} (${code})`} code={code}>{p.name}</Badge>;
}

/** Colour of a channel status. */
export function statusTone(status: string): Tone {
  if (status === 'CONNECTED') return 'green';
  if (status === 'FLAGGED' || status === 'RATE_LIMITED' || status === 'PENDING') return 'yellow';
  if (status === 'RESTRICTED' || status === 'BANNED' || status === 'DELETED' || status === 'DISCONNECTED') return 'red';
  return 'grey';
}

/** Colour of a quality rating. */
export function qualityTone(quality: string): Tone {
  if (quality === 'GREEN') return 'green';
  if (quality === 'YELLOW') return 'yellow';
  if (quality === 'RED') return 'red';
  return 'grey';
}

/** Colour of a messaging tier: higher tiers are blue, the smallest ones purple, unknown grey. */
export function tierTone(tier: string): Tone {
  if (tier === 'UNKNOWN' || tier === 'TIER_NOT_SET') return 'grey';
  if (tier === 'TIER_50' || tier === 'TIER_250') return 'purple';
  return 'blue';
}

/** Colour of a bulk send status. */
export function sendStatusTone(status: string): Tone {
  switch (status) {
    case 'RUNNING':
      return 'blue';
    case 'COMPLETED':
      return 'green';
    case 'PAUSED':
    case 'PAUSED_BY_USER':
      return 'yellow';
    case 'SCHEDULED':
      return 'purple';
    case 'STOPPED':
      return 'red';
    default:
      return 'grey';
  }
}

/** Colour of a message status. */
export function messageStatusTone(status: string): Tone {
  if (status === 'BACKEND_SEEN' || status === 'BACKEND_SENT' || status === 'BACKEND_DELIVERED') return 'green';
  if (status.includes('FAILED') || status === 'BACKEND_DELETED') return 'red';
  if (status === 'CANCELLED') return 'grey';
  if (status === 'SENT_TO_BACKEND') return 'blue';
  return 'yellow';
}
