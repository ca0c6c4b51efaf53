import type { Level } from './level';
import type { LevelRewrite } from './pass';
import { meaningful, renderTrimmed, splitArguments, wordOf, type GroupNode } from './token-tree';

/**
 * Rows compared as Postgres compares them: pair by pair from the left, the first pair that is not
 * equal deciding, NULL when that pair holds a NULL (`(1, NULL) = (1, NULL)` is NULL). DuckDB compares
 * rows as structs, where NULL equals NULL. Both sides must be row constructors of the same width
 * (`(a, b)` or `ROW(a, b)`); a row subquery stays as written.
 */
export const translateRowComparisons: LevelRewrite = (level, log) => {
  for (let k = 1; k + 1 < level.size; k += 1) {
    if (!level.op(k, '=', '<>', '!=', '<', '<=', '>', '>=')) continue;
    const left = rowAt(level, k - 1);
    const end = level.is(k + 1, 'ROW') ? k + 2 : k + 1;
    const right = rowAt(level, end);
    if (!left || !right || left.items.length !== right.items.length || !level.canReplace(left.start, end)) continue;
    const sql = compare(left.items, level.text(k, k), right.items);
    if (level.replace(left.start, end, `(${sql})`)) log.add('row comparison pair by pair');
  }
};

/** The row constructor whose bracket is at `k`: its items and where it starts (at ROW when written). */
function rowAt(level: Level, k: number): { items: string[]; start: number } | null {
  const group = level.group(k);
  if (!group || !isRow(group)) return null;
  const named = level.is(k - 1, 'ROW');
  // A bracket after a name is a call's arguments, not a row.
  if (!named && (level.word(k - 1) !== null || level.token(k - 1, 'quoted-ident')) && !isOperatorWord(level.word(k - 1))) return null;
  return { items: splitArguments(group.children).map(renderTrimmed), start: named ? k - 1 : k };
}

const isRow = (group: GroupNode) =>
  splitArguments(group.children).length > 1 && !['SELECT', 'VALUES', 'WITH'].includes(wordOf(meaningful(group.children)[0]) ?? '');
const isOperatorWord = (word: string | null) =>
  word !== null && ['AND', 'OR', 'NOT', 'WHERE', 'WHEN', 'THEN', 'ELSE', 'ON', 'SELECT', 'HAVING', 'RETURN'].includes(word);

function compare(left: readonly string[], operator: string, right: readonly string[]): string {
  const pairs = left.map((item, i) => [`(${item})`, `(${right[i]})`] as const);
  if (operator === '=') return pairs.map(([a, b]) => `${a} = ${b}`).join(' AND ');
  if (operator === '<>' || operator === '!=') return pairs.map(([a, b]) => `${a} <> ${b}`).join(' OR ');
  // `<` and its kin: strict on every pair but the last, which takes the operator itself.
  const strict = operator[0]!;
  return pairs.reduceRight((rest, [a, b], i) => (i === pairs.length - 1 ? `${a} ${operator} ${b}` : `${a} ${strict} ${b} OR (${a} = ${b} AND (${rest}))`), '');
}

/** `EXISTS (SELECT FROM t …)`: Postgres allows a subquery to select no column; DuckDB wants one. */
export const translateEmptySelectLists: LevelRewrite = (level, log) => {
  for (let k = 0; k + 1 < level.size; k += 1) {
    if (level.is(k, 'SELECT') && level.is(k + 1, 'FROM') && level.replace(k, k, 'SELECT NULL')) log.add('an empty select list selects NULL');
  }
};

/** `time '10:00' - time '08:30'`: an interval in Postgres, which DuckDB cannot subtract. */
export const translateTimeDifferences: LevelRewrite = (level, log) => {
  for (let k = 2; k + 2 < level.size; k += 1) {
    if (!level.op(k, '-') || !isTimeLiteral(level, k - 2) || !isTimeLiteral(level, k + 1)) continue;
    const [a, b] = [level.text(k - 2, k - 1), level.text(k + 1, k + 2)];
    if (level.replace(k - 2, k + 2, `(DATE '2000-01-01' + ${a} - (DATE '2000-01-01' + ${b}))`)) log.add('time - time → interval');
  }
};

const isTimeLiteral = (level: Level, k: number) => level.is(k, 'TIME') && level.token(k + 1, 'string');
