/** Loading helpers shared by pages. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { apiFetch, errorText } from './http';
import type { Channel } from './api-types';

/** The state of a load: data once loaded, the error text of the last failure, whether a load runs. */
export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => Promise<void>;
}

/** Runs `load` now and whenever `deps` change; `reload()` runs it again (the last answer wins). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);
  const alive = useRef(true);
  useEffect(() => () => {
    alive.current = false;
  }, []);
  const reload = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const value = await load();
      if (alive.current && mine === seq.current) {
        setData(value);
        setError(null);
      }
    } catch (err) {
      if (alive.current && mine === seq.current) setError(errorText(err));
    } finally {
      if (alive.current && mine === seq.current) setLoading(false);
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, reload };
}

/** Runs `reload` again whenever `version` changes after the first render (a bulk send's counters moved). */
export function useReloadOnChange(version: string, reload: () => Promise<void>): void {
  const seen = useRef(version);
  useEffect(() => {
    if (version !== seen.current) {
      seen.current = version;
      void reload();
    }
  }, [version]);
}

/** GET /api/v1/channels */
export function fetchChannels(): Promise<Channel[]> {
  return apiFetch<{ items: Channel[] }>('/api/v1/channels').then((b) => b.items);
}

/** The company's channels. */
export function useChannels(): Loaded<Channel[]> {
  return useLoad(fetchChannels, []);
}
