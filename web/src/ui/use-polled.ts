import { useEffect } from 'preact/hooks';
import { useLoad, type Loaded } from './use-load';

/**
 * Loads, then loads again every `everyMs` for as long as `changing` says the answer may still change
 * (a sync or a run in progress); a room that closes stops it.
 */
export function usePolled<T>(load: () => Promise<T>, inputs: unknown[], everyMs: number, changing: (data: T) => boolean): Loaded<T> {
  const loaded = useLoad(load, inputs);
  const again = loaded.data !== undefined && !loaded.loading && changing(loaded.data);
  useEffect(() => {
    if (!again) return;
    const timer = window.setTimeout(() => void loaded.reload(), everyMs);
    return () => window.clearTimeout(timer);
  }, [again, loaded.data]);
  return loaded;
}
