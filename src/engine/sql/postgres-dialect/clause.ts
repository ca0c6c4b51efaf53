import type { Level } from './level';

const clauseWords = new Set(['SELECT', 'FROM', 'WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET', 'WINDOW', 'QUALIFY', 'VALUES', 'RETURNING', 'SET', 'UNION', 'EXCEPT', 'INTERSECT']);

/**
 * Whether position `k` starts an item of a FROM list: right after FROM, JOIN or LATERAL, or after a
 * comma while the nearest clause keyword to the left at this level is FROM.
 */
export function startsFromItem(level: Level, k: number): boolean {
  if (level.is(k - 1, 'FROM', 'JOIN', 'LATERAL')) return true;
  return level.punct(k - 1, ',') && clauseAt(level, k - 1) === 'FROM';
}

/** The nearest clause keyword to the left of `k` at this level, or null. */
export function clauseAt(level: Level, k: number): string | null {
  for (let j = k - 1; j >= 0; j -= 1) {
    const word = level.word(j);
    if (word !== null && clauseWords.has(word)) return word;
  }
  return null;
}
