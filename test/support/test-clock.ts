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
}
