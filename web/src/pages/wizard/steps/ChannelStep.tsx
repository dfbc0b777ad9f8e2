/** Step 1: the channel, with the service's reason when it cannot send now (blocked_reason). */
import { explainBlock, tierName } from '../../../plain-names';
import { ChannelSelect } from '../../templates/ChannelSelect';
import type { Wizard } from '../useWizard';

export function ChannelStep({ w }: { w: Wizard }) {
  const { channels, channel, channelId } = w;
  if (!channels) return null;
  return (
    <>
      <ChannelSelect id="wiz-channel" channels={channels} value={channelId} onChange={w.chooseChannel} />
      {channel?.blocked_reason && (
        <p class="alert warn" role="status" data-testid="channel-blocked">
          This number cannot send now: {explainBlock(channel.blocked_reason)} A bulk send started now waits until it can.
        </p>
      )}
      {channel && (
        <p class="muted" title={channel.messaging_limit_tier}>
          Messaging limit: {tierName(channel.messaging_limit_tier)}{channel.tier_limit === null ? '' : ' (different customers in any 24 hours)'}.
        </p>
      )}
    </>
  );
}
