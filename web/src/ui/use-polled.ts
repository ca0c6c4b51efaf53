import { useEffect } from 'preact/hooks';
import { useLoad, type Loaded } from './use-load';

/**
 * Loads, then loads again after the interval `every` gives for the answer (short while a sync or a
 * run is in flight, longer while nothing is, null to stop); a room that closes stops it.
 */
export function usePolled<T>(load: () => Promise<T>, inputs: unknown[], every: (data: T) => number | null): Loaded<T> {
  const loaded = useLoad(load, inputs);
  const wait = loaded.data !== undefined && !loaded.loading ? every(loaded.data) : null;
  useEffect(() => {
    if (wait === null) return;
    const timer = window.setTimeout(() => void loaded.reload(), wait);
    return () => window.clearTimeout(timer);
  }, [wait, loaded.data]);
  return loaded;
}
