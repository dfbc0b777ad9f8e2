/** Channels: every phone number with status, quality and tier, the tier window's use and why it is blocked. */
import type { Channel } from '../../api-types';
import { Badge, PlainBadge, qualityTone, statusTone, tierTone } from '../../components/Badge';
import { useChannels } from '../../data';
import { fmtNumber, fmtRelative, fmtTime } from '../../format';
import { CHANNEL_STATUS_NAMES, explainBlock, QUALITY_NAMES, tierName } from '../../plain-names';
import { href } from '../../router';
import { apiFetch } from '../../http';
import { useEffect, useState } from 'preact/hooks';

export function ChannelsPage() {
  const channels = useChannels();
  return (
    <section class="page" aria-labelledby="channels-title">
      <div class="page-head">
        <div>
          <h1 id="channels-title">Channels</h1>
          <p class="muted">Your WhatsApp numbers, as the network last reported them.</p>
        </div>
        <button type="button" class="button" onClick={() => channels.reload()} disabled={channels.loading}>
          {channels.loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {channels.error && <p class="alert error" role="alert">Could not load the channels: {channels.error}</p>}
      {channels.data && channels.data.length === 0 && <p class="alert info">This company has no channels yet. Add one with <code>tms channel add</code>.</p>}
      <div class="grid-cards" aria-busy={channels.loading}>
        {channels.data?.map((c) => <ChannelCard key={c.id} channel={c} onChanged={() => channels.reload()} />)}
      </div>
    </section>
  );
}

function ChannelCard({ channel: c, onChanged }: { channel: Channel; onChanged: () => void }) {
  const titleId = `channel-${c.id}`;
  return (
    <article class="card channel-card" aria-labelledby={titleId} data-channel-id={c.id}>
      <header class="channel-head">
        <h2 id={titleId}>{c.verified_name || c.display_phone_number}</h2>
        <div class="muted">
          {c.display_phone_number} · <span class="mono">{c.id}</span>
        </div>
      </header>
      <div class="badges" role="list" aria-label="Health">
        <span role="listitem"><PlainBadge tone={statusTone(c.status)} label="Status" names={CHANNEL_STATUS_NAMES} code={c.status} /></span>
        <span role="listitem"><PlainBadge tone={qualityTone(c.quality_rating)} label="Quality" names={QUALITY_NAMES} code={c.quality_rating} /></span>
        <span role="listitem">
          <Badge tone={tierTone(c.messaging_limit_tier)} label="Messaging limit" title={`New customers this number may message in 24 h (${c.messaging_limit_tier})`} code={c.messaging_limit_tier}>
            {tierName(c.messaging_limit_tier)}
          </Badge>
        </span>
      </div>
      {c.blocked_reason ? (
        <p class="alert error blocked" data-testid="blocked-reason">
          <strong>Blocked:</strong> {explainBlock(c.blocked_reason)}
        </p>
      ) : (
        <p class="alert ok-line">Can send now.</p>
      )}
      <TierMeter channel={c} />
      <dl class="facts">
        <div><dt>Speed</dt><dd title={c.throughput_level ?? undefined}>{fmtNumber(c.throughput_mps)} messages a second{c.throughput_override_mps !== null ? ' (set by an operator)' : ''}</dd></div>
        <div><dt>WhatsApp account</dt><dd class="mono">{c.whatsapp_account_id}</dd></div>
        <div><dt>Checked</dt><dd>{fmtTime(c.refreshed_at)}</dd></div>
      </dl>
      <MarketingMessagesToggle channel={c} onChanged={onChanged} />
      {c.auth_error && c.auth_error !== c.blocked_reason && <p class="alert warn">Last network refusal: {c.auth_error}</p>}
      {c.status_webhooks_stale_since && (
        <p class="alert warn">No status webhook since {fmtTime(c.status_webhooks_stale_since)} while messages await one: check the app's webhook subscription.</p>
      )}
      <div class="row">
        <a class="card-link" href={href('/overview', { channel: c.id })}>Overview</a>
        <a class="card-link" href={href('/reports', { channel: c.id })}>Bulk sends of this channel</a>
      </div>
    </article>
  );
}

/**
 * The channel's Marketing Messages setting: MARKETING templates through WhatsApp's Marketing Messages API (delivery
 * optimisation, a TTL per bulk send), other categories always by /messages. When the network refused the account the
 * service switched it off, and the reason is shown.
 */
function MarketingMessagesToggle({ channel: c, onChanged }: { channel: Channel; onChanged: () => void }) {
  const [saving, setSaving] = useState(false);
  // The box shows the user's choice at once; it gives way to the service's answer when the channel is read again.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = `mm-${c.id}`;
  const mm = c.marketing_messages;
  useEffect(() => setWanted(null), [mm.enabled, mm.disabled_at]);
  const change = async (enabled: boolean) => {
    setSaving(true);
    setWanted(enabled);
    setError(null);
    try {
      await apiFetch(`/api/v1/channels/${encodeURIComponent(c.id)}/marketing-messages`, { method: 'PUT', json: { enabled } });
      onChanged();
    } catch (err) {
      setWanted(null);
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div class="marketing-messages" data-testid="marketing-messages">
      <label class="check" for={id}>
        <input id={id} type="checkbox" checked={wanted ?? mm.enabled} disabled={saving} aria-describedby={`${id}-hint`}
          onChange={(e) => void change((e.currentTarget as HTMLInputElement).checked)} />
        Send marketing templates through the Marketing Messages API
      </label>
      <p id={`${id}-hint`} class="muted small">
        WhatsApp's delivery optimisation for MARKETING templates (billed as marketing lite, at the same list price). Utility and
        authentication templates always go the usual way. The WhatsApp account must be onboarded to it.
      </p>
      {mm.disabled_reason && (
        <p class="alert warn" data-testid="marketing-messages-off">
          Switched off by the service {mm.disabled_at ? fmtRelative(mm.disabled_at) : ''}: {mm.disabled_reason}
        </p>
      )}
      {error && <p class="alert error" role="alert">Could not change it: {error}</p>}
    </div>
  );
}

function TierMeter({ channel: c }: { channel: Channel }) {
  if (c.tier_limit === null) {
    return (
      <div class="tier">
        <div class="tier-line"><strong>Messaging limit</strong><span>{tierName(c.messaging_limit_tier)}: no cap</span></div>
        <p class="muted small" data-testid="tier-used">{fmtNumber(c.tier_used_24h)} customers messaged in the last 24 h.</p>
      </div>
    );
  }
  const used = Math.min(c.tier_used_24h, c.tier_limit);
  const left = c.tier_left_24h ?? 0;
  const pct = c.tier_limit > 0 ? Math.round((used / c.tier_limit) * 100) : 100;
  const tone = left === 0 ? 'red' : pct >= 80 ? 'yellow' : 'green';
  return (
    <div class="tier">
      <div class="tier-line">
        <strong id={`tier-${c.id}`}>Messaging limit (last 24 h)</strong>
        <span data-testid="tier-left">{fmtNumber(left)} left</span>
      </div>
      <div
        class={`meter ${tone}`}
        role="meter"
        aria-labelledby={`tier-${c.id}`}
        aria-valuemin={0}
        aria-valuemax={c.tier_limit}
        aria-valuenow={used}
        aria-valuetext={`${used} of ${c.tier_limit} used, ${left} left`}
      >
        <span style={{ width: `${pct}%` }} />
      </div>
      <p class="muted small" data-testid="tier-used">
        {fmtNumber(c.tier_used_24h)} of {fmtNumber(c.tier_limit)} customers messaged
        {c.tier_window_frees_at ? `; the next slot frees ${fmtRelative(c.tier_window_frees_at)}` : ''}.
      </p>
    </div>
  );
}
