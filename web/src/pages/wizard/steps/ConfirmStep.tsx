/** Step 7: what will happen, from the service's dry run; then the start and a link to its report. */
import { href } from '../../../router';
import { duration } from '../pacing';
import { MAX_SEND_NAME_LENGTH } from '../../../../../src/domain/bulk-send-name.js';
import type { Wizard } from '../useWizard';

export function ConfirmStep({ w }: { w: Wizard }) {
  const { checked, totalTime, starting, started, sendName } = w.state;
  const { channel, template } = w;
  if (!template || !channel) return null;
  if (started) {
    return (
      <div class="started" role="status">
        <p class="alert info">Started: {started.summary.toLocaleString('en-US')} messages queued{started.duplicate_count ? `, ${started.duplicate_count} duplicate number${started.duplicate_count === 1 ? '' : 's'} removed` : ''}.</p>
        <p><a class="button primary" href={href('/reports', { channel: w.channelId, id: started.send_wizard_id })} data-testid="report-link">Open the report</a></p>
        <p class="muted small">Bulk send id <code>{started.send_wizard_id}</code></p>
      </div>
    );
  }
  if (!checked) return <p class="alert warn">The list changed since it was checked: go back to “Preview & check”.</p>;
  const tier = channel.messaging_limit_tier;
  const short = checked.tier_quota_left !== null && checked.tier_quota_needed > checked.tier_quota_left;
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
        <dt>Messages</dt><dd data-testid="confirm-count">{checked.rows.toLocaleString('en-US')}</dd>
        <dt>Duplicates removed</dt><dd data-testid="confirm-duplicates">{checked.duplicates_removed.toLocaleString('en-US')}</dd>
        <dt>Tier quota needed</dt><dd>{checked.tier_quota_needed.toLocaleString('en-US')} new recipient{checked.tier_quota_needed === 1 ? '' : 's'}</dd>
        <dt>Tier quota left</dt><dd>{checked.tier_quota_left === null ? `no cap (${tier})` : `${checked.tier_quota_left.toLocaleString('en-US')} of ${tier}`}</dd>
        <dt>Pacing</dt><dd>{totalTime === 0 ? 'as fast as the channel allows' : `over ${duration(totalTime)}`}</dd>
      </dl>
      {short && (
        <p class="alert warn" role="status">The tier allows {checked.tier_quota_left} more new recipients in the rolling 24 hours; the rest wait until earlier sends age out of the window.</p>
      )}
      <button type="button" class="button primary" onClick={w.doStart} disabled={starting}>{starting ? 'Starting…' : `Start sending ${checked.rows.toLocaleString('en-US')} message${checked.rows === 1 ? '' : 's'}`}</button>
    </>
  );
}
