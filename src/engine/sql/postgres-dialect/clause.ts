import type { Level } from './level';

/** Words that end a FROM item and so cannot be its alias. */
export const fromItemEnders = new Set([
  'ANTI',
  'ASOF',
  'CROSS',
  'EXCEPT',
  'FETCH',
  'FOR',
  'FULL',
  'GROUP',
  'HAVING',
  'INNER',
  'INTERSECT',
  'JOIN',
  'LEFT',
  'LIMIT',
  'NATURAL',
  'OFFSET',
  'ON',
  'ORDER',
  'POSITIONAL',
  'QUALIFY',
  'RIGHT',
  'SEMI',
  'TABLESAMPLE',
  'UNION',
  'USING',
  'WHERE',
  'WINDOW',
]);

const clauseWords = new Set([
  'SELECT',
  'FROM',
  'WHERE',
  'GROUP',
  'HAVING',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'WINDOW',
  'QUALIFY',
  'VALUES',
  'RETURNING',
  'SET',
  'UNION',
  'EXCEPT',
  'INTERSECT',
]);

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
  return level.memoized(clauseIndex, clausesBefore)[k] ?? null;
}

const clauseIndex = {};

/** For each position, the nearest clause keyword before it: one pass, however many positions ask. */
function clausesBefore(level: Level): (string | null)[] {
  const before: (string | null)[] = [null];
  for (let j = 0; j < level.size; j += 1) {
    const word = level.word(j);
    before.push(word !== null && clauseWords.has(word) ? word : before[j]!);
  }
  return before;
}
