import { describe, expect, test } from 'bun:test';
import { nextLook } from '../../src/engine/duckdb/pending-statement';

describe('when a running statement is looked at next', () => {
  test('a young statement on the next turn of the event loop, then after pauses that grow with its age', () => {
    expect(nextLook(0.1)).toEqual({ kind: 'next-turn' });
    expect(nextLook(0.3)).toEqual({ kind: 'sleep', ms: 1 });
    expect(nextLook(400)).toEqual({ kind: 'sleep', ms: 2 });
    expect(nextLook(60_000)).toEqual({ kind: 'sleep', ms: 5 });
  });

  test('a statement whose last run is known: closely from a millisecond before that time to two after', () => {
    expect(nextLook(10, 30)).toEqual({ kind: 'sleep', ms: 1 });
    expect(nextLook(28.5, 30)).toEqual({ kind: 'sleep', ms: 1 });
    expect(nextLook(29, 30)).toEqual({ kind: 'close' });
    expect(nextLook(31.9, 30)).toEqual({ kind: 'close' });
    expect(nextLook(32, 30)).toEqual({ kind: 'sleep', ms: 1 });
    // A pause of an older statement never sleeps past the start of the close looks.
    expect(nextLook(600, 602.5)).toEqual({ kind: 'sleep', ms: 1.5 });
    expect(nextLook(600, 700)).toEqual({ kind: 'sleep', ms: 3 });
    // A statement that ended in a tenth of a millisecond last time is looked at closely at once.
    expect(nextLook(0.3, 0.1)).toEqual({ kind: 'close' });
  });
});
