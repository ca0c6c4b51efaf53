/** Where services read the time; tests pass a clock they can move. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function isoAfter(clock: Clock, ms: number): string {
  return new Date(clock.now().getTime() + ms).toISOString();
}
