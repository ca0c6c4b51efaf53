/** Polls `read` until `done` says so: quickly at first, then every second. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, onEach: (value: T, seconds: number) => void): Promise<T> {
  const started = performance.now();
  let delay = 200;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    onEach(value, (performance.now() - started) / 1000);
    await Bun.sleep(delay);
    delay = Math.min(1000, delay * 1.5);
  }
}

export const isFinal = (status: string) => ['succeeded', 'failed', 'cancelled', 'skipped'].includes(status);
