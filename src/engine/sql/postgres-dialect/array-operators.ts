import { postgresError } from '../postgres-errors';
import type { Level } from './level';
import { macroArgument, operandsOf } from './operands';
import type { LevelRewrite, RewriteLog } from './pass';
import { isToken } from './token-tree';

/**
 * Array operators DuckDB spells otherwise. `array || element` and `element || array` append and
 * prepend (DuckDB's `||` joins two lists only); `x LIKE ANY (array)` and its kin test each pattern
 * (DuckDB has no LIKE with ANY or ALL); and a slice followed by a subscript, which Postgres reads
 * as a slice of a multi-dimensional array, is refused rather than read as DuckDB's slice of a slice.
 */

/** Operand texts (as translated so far) that are arrays for sure: a constructor, a list, a cast to an array type, a function that returns one. */
const arrayOperands = [
  /^ARRAY\s*[[(]/i,
  /^\[/,
  /\[\s*\]\s*$/,
  /^(?:array_agg|array_append|array_prepend|array_cat|array_remove|array_replace|string_to_array|regexp_split_to_array|string_split|list_\w+)\s*\(/i,
];
const isArray = (operand: string) => arrayOperands.some((pattern) => pattern.test(operand.trim()));

/** `a || b || c` folded left to right, as Postgres resolves each `||` by its operands' types. */
function concatenation(level: Level, k: number, log: RewriteLog): number {
  const operands = operandsOf(level);
  const start = operands.startOf(k - 1);
  if (start === -1) return k;
  const terms: [number, number][] = [[start, k - 1]];
  while (level.op(terms.at(-1)![1] + 1, '||')) {
    const from = terms.at(-1)![1] + 2;
    const to = operands.endOf(from);
    if (to === -1) return k;
    terms.push([from, to]);
  }
  const end = terms.at(-1)![1];
  const texts = terms.map(([from, to]) => level.text(from, to));
  let sql = texts[0]!;
  let array = isArray(sql);
  let mixed = false;
  for (const text of texts.slice(1)) {
    const next = isArray(text);
    if (array !== next) mixed = true;
    sql = array && next ? `list_concat(${sql}, ${text})` : array ? `list_append(${sql}, ${text})` : next ? `list_prepend(${sql}, ${text})` : `${sql} || ${text}`;
    array ||= next;
  }
  if (mixed && level.canReplace(start, end) && level.replace(start, end, sql)) log.add('array || element → list_append / list_prepend');
  return end;
}

/** `x [NOT] LIKE|ILIKE ANY|SOME|ALL (patterns)`: every pattern tested, the answers joined by OR or AND. */
function quantifiedPattern(level: Level, k: number, log: RewriteLog): void {
  const negated = level.is(k - 1, 'NOT');
  const operator = level.word(k)!;
  const quantifier = level.word(k + 1)!;
  const patterns = level.group(k + 2);
  const start = operandsOf(level).leftOf(negated ? k - 1 : k);
  if (!patterns || start === -1 || !level.canReplace(start, k + 2)) return;
  const list = level.text(k + 2, k + 2);
  const tested = `${macroArgument(level.text(start, negated ? k - 2 : k - 1))} ${negated ? 'NOT ' : ''}${operator} __pattern`;
  const joined = quantifier === 'ALL' ? 'list_bool_and' : 'list_bool_or';
  const empty = quantifier === 'ALL' ? 'true' : 'false';
  const sql = `(CASE WHEN len(${list}) = 0 THEN ${empty} ELSE ${joined}(list_transform(${list}, lambda __pattern: ${tested})) END)`;
  if (level.replace(start, k + 2, sql)) log.add('LIKE ANY / ALL → each pattern');
}

/** Whether the bracket at `k` is a slice: a colon at its top level. */
function isSlice(level: Level, k: number): boolean {
  const group = level.group(k, '[');
  return group !== null && group.children.some((node) => isToken(node, 'punct', ':') || isToken(node, 'op', ':'));
}

export const translateArrayOperators: LevelRewrite = (level, log) => {
  for (let k = 1; k < level.size; k += 1) {
    if (level.op(k, '||')) k = concatenation(level, k, log);
    else if (level.is(k, 'LIKE', 'ILIKE') && level.is(k + 1, 'ANY', 'SOME', 'ALL') && level.group(k + 2)) quantifiedPattern(level, k, log);
    else if (isSlice(level, k) && level.group(k + 1, '[')) {
      throw postgresError('0A000', 'a slice followed by a subscript reads a multi-dimensional array in Postgres, which DuckDB does not have');
    }
  }
};
