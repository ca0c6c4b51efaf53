import type { Clock } from '../../src/util/clock';

/** A clock that tests move by hand (expiry of codes, tokens and windows without sleeping). */
export class TestClock implements Clock {
  private offsetMs = 0;
  /** While held: the instant the clock stands at. */
  private heldAtMs: number | undefined;

  now(): Date {
    return new Date(this.heldAtMs ?? Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    if (this.heldAtMs !== undefined) this.heldAtMs += ms;
    else this.offsetMs += ms;
  }

  /** Moves the clock to an instant (it runs on from there): a month's end, a day's first second. */
  set(instant: Date | string): void {
    if (this.heldAtMs !== undefined) this.heldAtMs = new Date(instant).getTime();
    else this.offsetMs = new Date(instant).getTime() - Date.now();
  }

  /**
   * Stops the clock where it is until `release`: for bounds to the second (a signature's age), which a
   * request slowed by a busy machine must not cross between the test's reading and the service's.
   */
  hold(): void {
    this.heldAtMs = this.now().getTime();
  }

  /** Lets the clock run on from where it stood. */
  release(): void {
    if (this.heldAtMs === undefined) return;
    this.offsetMs = this.heldAtMs - Date.now();
    this.heldAtMs = undefined;
  }
}
