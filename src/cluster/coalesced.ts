/**
 * Calls `send` for a key at once, then at most once more per `quietMs` however often it is asked
 * meanwhile (at the end of the quiet time, if it was): a burst of small writes to one workspace makes
 * two notices, not one per write.
 */
export function coalesced(send: (key: string) => void, quietMs: number): (key: string) => void {
  const quiet = new Map<string, { again: boolean }>();
  const settle = (key: string) => {
    const state = quiet.get(key);
    quiet.delete(key);
    if (state?.again) ask(key);
  };
  const ask = (key: string) => {
    const state = quiet.get(key);
    if (state) {
      state.again = true;
      return;
    }
    quiet.set(key, { again: false });
    send(key);
    setTimeout(() => settle(key), quietMs).unref();
  };
  return ask;
}
