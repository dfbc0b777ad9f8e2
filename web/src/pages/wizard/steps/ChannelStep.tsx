/** Step 1: the channel, with a warning when it cannot send now. */
import { ChannelSelect } from '../../templates/ChannelSelect';
import type { Wizard } from '../useWizard';

export function ChannelStep({ w }: { w: Wizard }) {
  const { channels, channel, channelId } = w;
  if (!channels) return null;
  return (
    <>
      <ChannelSelect id="wiz-channel" channels={channels} value={channelId} onChange={w.chooseChannel} />
      {channel && (channel.status === 'FLAGGED' || channel.status === 'RESTRICTED' || channel.quality_rating === 'RED' || channel.auth_error) && (
        <p class="alert warn" role="status">
          This channel cannot send now ({channel.auth_error ?? `${channel.status}, quality ${channel.quality_rating}`}): a bulk send waits until it can.
        </p>
      )}
      {channel && <p class="muted">Tier: {channel.messaging_limit_tier} (new recipients per rolling 24 hours).</p>}
    </>
  );
}
