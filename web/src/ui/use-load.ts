import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => Promise<void>;
}

/** Loads with the inputs given, again when they change or on reload; a late answer of older inputs is dropped. */
export function useLoad<T>(load: () => Promise<T>, inputs: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const generation = useRef(0);
  const run = useCallback(async () => {
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    try {
      const data = await load();
      if (mine === generation.current) setState({ data, error: undefined, loading: false });
    } catch (error) {
      if (mine === generation.current) setState((previous) => ({ data: previous.data, error, loading: false }));
    }
  }, inputs);
  useEffect(() => {
    void run();
  }, [run]);
  return { ...state, reload: run };
}
