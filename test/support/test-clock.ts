import type { Clock } from '../../src/util/clock';

/** A clock that tests move by hand (expiry of codes, tokens and windows without sleeping). */
export class TestClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** Moves the clock to an instant (it runs on from there): a month's end, a day's first second. */
  set(instant: Date | string): void {
    this.offsetMs = new Date(instant).getTime() - Date.now();
  }
}
