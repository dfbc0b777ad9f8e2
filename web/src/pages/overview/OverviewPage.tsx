/**
 * Overview: the company's (or one channel's) sends of the last 24 h, 7 d or 30 d from GET /api/v1/overview —
 * volume, sent → delivered → read with the rates, the estimated cost, a chart per hour or day, failures by error
 * code, and each channel's use of its messaging limit. `#/overview?channel=…&period=7d`.
 */
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import type { Overview } from '../../api-types';
import { STAGE_STYLE, TimeChart } from '../../components/Chart';
import { FailuresTable } from '../../components/FailuresTable';
import { useChannels, useLoad } from '../../data';
import { fmtMoney, fmtNumber } from '../../format';
import { apiFetch } from '../../http';
import { fmtRate, FUNNEL_STAGES, tierName } from '../../plain-names';
import { replaceQuery, useRoute } from '../../router';

const PERIODS = [
  { value: '24h', label: 'Last 24 hours', bucket: 'per hour' },
  { value: '7d', label: 'Last 7 days', bucket: 'per day (UTC)' },
  { value: '30d', label: 'Last 30 days', bucket: 'per day (UTC)' },
] as const;

/** The plain name of a funnel stage by its overview key (sent/delivered/read as the network says them). */
const stageName = (key: 'sent' | 'delivered' | 'read') => FUNNEL_STAGES[['sent', 'delivered', 'read'].indexOf(key)].name;

export function OverviewPage() {
  const route = useRoute();
  const channels = useChannels();
  const channelId = route.query.get('channel') ?? '';
  const period = PERIODS.find((p) => p.value === route.query.get('period'))?.value ?? '24h';
  const setQuery = (changes: Record<string, string>) => replaceQuery('/overview', { channel: channelId || null, period, ...changes });

  const data = useLoad(() => {
    const q = new URLSearchParams({ period });
    if (channelId) q.set('channel_id', channelId);
    return apiFetch<{ data: Overview }>(`/api/v1/overview?${q}`).then((b) => b.data);
  }, [channelId, period]);
  const o = data.data;
  const chart = useMemo(() => {
    if (!o) return null;
    const pick = (k: 'messages' | 'sent' | 'delivered' | 'read' | 'failed') => o.series.map((p) => p[k]);
    return {
      times: o.series.map((p) => Date.parse(p.at)),
      series: [
        { label: 'Messages', ...STAGE_STYLE.messages, values: pick('messages') },
        { label: stageName('sent'), ...STAGE_STYLE.sent, values: pick('sent') },
        { label: stageName('delivered'), ...STAGE_STYLE.delivered, values: pick('delivered') },
        { label: stageName('read'), ...STAGE_STYLE.read, values: pick('read') },
        { label: 'Failed', ...STAGE_STYLE.failed, values: pick('failed') },
      ].map((s) => ({ ...s, dash: [...s.dash] })),
    };
  }, [o]);
  const periodInfo = PERIODS.find((p) => p.value === period)!;

  return (
    <section class="page" aria-labelledby="overview-title">
      <div class="page-head">
        <div>
          <h1 id="overview-title">Overview</h1>
          <p class="muted">Messages made in the period: bulk sends by the time they started, single sends by their own time.</p>
        </div>
        <div class="toolbar">
          <label class="field">
            <span>Channel</span>
            <select value={channelId} onChange={(e) => setQuery({ channel: (e.target as HTMLSelectElement).value })} disabled={!channels.data}>
              <option value="">All channels</option>
              {channels.data?.map((c) => (
                <option key={c.id} value={c.id}>{`${c.verified_name || c.display_phone_number} (${c.display_phone_number})`}</option>
              ))}
            </select>
          </label>
          <fieldset class="period">
            <legend>Period</legend>
            {PERIODS.map((p) => (
              <label key={p.value}>
                <input type="radio" name="period" value={p.value} checked={p.value === period} onChange={() => setQuery({ period: p.value })} />
                <span>{p.label}</span>
              </label>
            ))}
          </fieldset>
        </div>
      </div>
      {data.error && <p class="alert error" role="alert">Could not load the overview: {data.error}</p>}
      {o && (
        <div class="overview" aria-busy={data.loading} data-testid="overview">
          <dl class="tiles">
            <Tile name="Messages" value={o.totals.messages} testId="messages">
              {fmtNumber(o.totals.bulk_sends)} bulk sends · {fmtNumber(o.totals.single_sends)} single
            </Tile>
            <Tile name={stageName('sent')} value={o.totals.sent} testId="sent">accepted by WhatsApp</Tile>
            <Tile name={stageName('delivered')} value={o.totals.delivered} testId="delivered">
              <span data-testid="delivered-rate">{fmtRate(o.totals.delivered_rate)}</span> of sent
            </Tile>
            <Tile name={stageName('read')} value={o.totals.read} testId="read">
              <span data-testid="read-rate">{fmtRate(o.totals.read_rate)}</span> of delivered
            </Tile>
            <Tile name="Failed" value={o.totals.failed} testId="failed">
              {o.totals.cancelled > 0 ? `${fmtNumber(o.totals.cancelled)} cancelled apart` : 'not delivered'}
            </Tile>
            <Tile name="Estimated cost" value={costText(o.cost)} testId="cost">
              <span title={o.cost.note}>
                {fmtNumber(o.cost.billable_count)} billed
                {o.cost.unknown_price_count > 0 && o.cost.unknown_price_count < o.cost.billable_count ? `, ${fmtNumber(o.cost.unknown_price_count)} without a list price` : ''}
                {" · Meta's list price, not an invoice"}
              </span>
            </Tile>
          </dl>
          <div class="card">
            {chart && <TimeChart title="Messages over time" caption={periodInfo.bucket} times={chart.times} series={chart.series} testId="overview-chart" />}
          </div>
          <div class="overview-grid">
            <section class="card" aria-labelledby="failures-title">
              <h2 id="failures-title">Failures by reason</h2>
              {o.failures.length === 0 ? (
                <p class="muted">No failed message in this period.</p>
              ) : (
                <FailuresTable failures={o.failures} total={o.totals.failed} testId="failures" />
              )}
            </section>
            <section class="card" aria-labelledby="limits-title">
              <h2 id="limits-title">Messaging limits now</h2>
              <p class="muted small">Customers messaged in the rolling 24 hours, against each number's limit.</p>
              <ul class="limits">
                {o.channels.map((c) => (
                  <li key={c.channel_id} data-channel-id={c.channel_id}>
                    <div class="tier-line"><strong>{c.name}</strong><span title={c.messaging_limit_tier}>{tierName(c.messaging_limit_tier)}</span></div>
                    {c.tier_limit === null ? (
                      <p class="muted small" data-testid="limit-use">{fmtNumber(c.tier_used_24h)} customers, no cap</p>
                    ) : (
                      <>
                        <div class={`meter ${c.tier_used_24h >= c.tier_limit ? 'red' : c.tier_used_24h >= c.tier_limit * 0.8 ? 'yellow' : 'green'}`} role="meter" aria-label={`${c.name}: customers messaged`} aria-valuemin={0} aria-valuemax={c.tier_limit} aria-valuenow={Math.min(c.tier_used_24h, c.tier_limit)}>
                          <span style={{ width: `${Math.min(100, (c.tier_used_24h / Math.max(1, c.tier_limit)) * 100)}%` }} />
                        </div>
                        <p class="muted small" data-testid="limit-use">{fmtNumber(c.tier_used_24h)} of {fmtNumber(c.tier_limit)} customers</p>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          </div>
        </div>
      )}
    </section>
  );
}

/** The period's cost: "unknown" when no billed message has a list price on the rate card. */
function costText(cost: Overview['cost']): string {
  if (cost.billable_count > 0 && cost.unknown_price_count >= cost.billable_count) return 'unknown';
  return `${cost.complete ? '' : 'at least '}${fmtMoney(cost.estimated_cost, cost.currency)}`;
}

function Tile(props: { name: string; value: number | string; testId: string; children: ComponentChildren }) {
  return (
    <div class="tile" data-testid={`tile-${props.testId}`}>
      <dt>{props.name}</dt>
      <dd>
        <span class="tile-value">{typeof props.value === 'string' ? props.value : fmtNumber(props.value)}</span>
        <div class="tile-note">{props.children}</div>
      </dd>
    </div>
  );
}
