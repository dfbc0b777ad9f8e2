/** Step 7: what will happen, from the service's dry run; then the start and a link to its report. */
import { href } from '../../../router';
import { fmtMoney, fmtTime } from '../../../format';
import { tierName } from '../../../plain-names';
import { duration } from '../pacing';
import { MAX_SEND_NAME_LENGTH } from '../../../../../src/domain/bulk-send-name.js';
import type { DryRun } from '../api';
import type { Wizard } from '../useWizard';
import { TestSendBox } from './TestSendBox';

/** The dry run's estimate, said as what it is: Meta's list price for the rows if all were delivered, not an invoice. */
function Estimate({ cost }: { cost: DryRun['estimate'] }) {
  const money = (n: number) => fmtMoney(n, cost.currency);
  const categories = [...new Set(cost.by_market.map((m) => m.category))];
  return (
    <span title={cost.note}>
      {cost.billable_count > 0 && cost.unknown_price_count >= cost.billable_count
        ? 'unknown (no list price for these countries)'
        : `${cost.complete ? 'about' : 'at least'} ${money(cost.estimated_cost)}`}
      {categories.length ? ` (${categories.map((c) => c.replace(/_/g, ' ')).join(', ')})` : ''}
      {cost.unknown_price_count && cost.unknown_price_count < cost.billable_count ? `; ${cost.unknown_price_count.toLocaleString('en-US')} message${cost.unknown_price_count === 1 ? ' has' : 's have'} no known price` : ''}
      <small class="muted estimate-note">Meta’s list price{cost.rate_card_effective_date ? ` of ${cost.rate_card_effective_date}` : ''} if every message is delivered — an estimate, not an invoice.</small>
    </span>
  );
}

export function ConfirmStep({ w }: { w: Wizard }) {
  const { checked, totalTime, starting, started, sendName } = w.state;
  const at = w.schedule.ok ? w.schedule.at : null;
  const { channel, template } = w;
  if (!template || !channel) return null;
  if (started) {
    return (
      <div class="started" role="status">
        <p class="alert info">
          {started.scheduledAt ? `Scheduled: ${started.summary.toLocaleString('en-US')} messages start ${fmtTime(started.scheduledAt)}` : `Started: ${started.summary.toLocaleString('en-US')} messages queued`}
          {started.duplicate_count ? `, ${started.duplicate_count} repeated number${started.duplicate_count === 1 ? '' : 's'} sent once` : ''}.
        </p>
        <p><a class="button primary" href={href('/reports', { channel: w.channelId, id: started.send_wizard_id })} data-testid="report-link">Open the report</a></p>
        <p class="muted small">Bulk send id <code>{started.send_wizard_id}</code></p>
      </div>
    );
  }
  if (!checked) return <p class="alert warn">The list changed since it was checked: go back to “Preview & check”.</p>;
  const tier = channel.messaging_limit_tier;
  const short = checked.tier_left_24h !== null && checked.tier_needed_24h > checked.tier_left_24h;
  return (
    <>
      <label class="field send-name" for="wiz-send-name">
        <span>Name this send (optional)</span>
        <input id="wiz-send-name" type="text" maxLength={MAX_SEND_NAME_LENGTH} value={sendName} aria-describedby="wiz-send-name-hint"
          onInput={(e) => w.dispatch({ type: 'sendNamed', name: (e.target as HTMLInputElement).value })} />
        <small id="wiz-send-name-hint" class="muted">Shown in Reports, so you can tell this send apart from other sends of {template.name}.</small>
      </label>
      <dl class="summary" data-testid="confirm-summary">
        <dt>Channel</dt><dd>{`${channel.display_phone_number} · ${channel.verified_name}`}</dd>
        <dt>Template</dt><dd>{template.name} ({template.language})</dd>
        <dt>Messages</dt><dd data-testid="confirm-count">{checked.summary.toLocaleString('en-US')}</dd>
        <dt>Repeated numbers (sent once)</dt><dd data-testid="confirm-duplicates">{checked.duplicate_count.toLocaleString('en-US')}</dd>
        <dt>New customers in 24 hours</dt><dd title="tier_needed_24h">{checked.tier_needed_24h.toLocaleString('en-US')} not messaged from this number in the last 24 hours</dd>
        <dt>Messaging limit left</dt><dd title={tier}>{checked.tier_left_24h === null ? `no cap (${tierName(tier)})` : `${checked.tier_left_24h.toLocaleString('en-US')} more new customers (limit ${tierName(tier)})`}</dd>
        {w.state.skipInvalid && (
          <><dt>Rows left out as invalid</dt><dd data-testid="confirm-skipped">{(checked.skipped_count ?? 0).toLocaleString('en-US')}{checked.skipped_count ? ' (listed in the report)' : ''}</dd></>
        )}
        <dt>Estimated cost</dt><dd data-testid="confirm-estimate"><Estimate cost={checked.estimate} /></dd>
        <dt>Starts</dt><dd data-testid="confirm-start">{at ? fmtTime(at.toISOString()) : 'now'}</dd>
        <dt>Pacing</dt><dd>{totalTime === 0 ? 'as fast as the channel allows' : `over ${duration(totalTime)}`}</dd>
      </dl>
      <TestSendBox w={w} />
      {short && (
        <p class="alert warn" role="status">The messaging limit allows {checked.tier_left_24h?.toLocaleString('en-US')} more new customers now; the rest wait until customers messaged in the last 24 hours no longer count.</p>
      )}
      <button type="button" class="button primary" onClick={w.doStart} disabled={starting}>{starting ? 'Starting…' : `${at ? 'Schedule' : 'Start sending'} ${checked.summary.toLocaleString('en-US')} message${checked.summary === 1 ? '' : 's'}`}</button>
    </>
  );
}
