/** The channel chooser of the templates page and the send wizard (channels from GET /api/v1/channels). */
import { useEffect, useState } from 'preact/hooks';
import { CHANNEL_STATUS_NAMES, plain, QUALITY_NAMES } from '../../plain-names';
import { errorText } from '../../http';
import { listChannels, type Channel } from './api';

/** Loads the channels once; `onLoaded` gets them (e.g. to pick the first when none is chosen). */
export function useChannels(): { channels: Channel[] | null; error: string | null } {
  const [channels, setChannels] = useState<Channel[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    listChannels().then((c) => live && setChannels(c)).catch((e) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, []);
  return { channels, error };
}

/** A labelled select of the channels (number, name, status). */
export function ChannelSelect({ id, channels, value, onChange, label = 'Channel' }: {
  id: string;
  channels: Channel[];
  value: string;
  onChange: (channelId: string) => void;
  label?: string;
}) {
  return (
    <label class="field" for={id}>
      <span>{label}</span>
      <select id={id} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        {channels.map((c) => (
          <option key={c.id} value={c.id}>
            {c.display_phone_number} · {c.verified_name} ({plain(CHANNEL_STATUS_NAMES, c.status).name}, {plain(QUALITY_NAMES, c.quality_rating).name.toLowerCase()})
          </option>
        ))}
      </select>
    </label>
  );
}
