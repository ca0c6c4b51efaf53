/**
 * Reads until `accept` holds or the time is up, then returns the last reading: for what the service
 * records after it has answered (access lines and request metrics are written once the response is out).
 */
export async function eventually<T>(read: () => T | Promise<T>, accept: (value: T) => boolean, timeoutMs = 2_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || performance.now() > deadline) return value;
    await Bun.sleep(10);
  }
}
