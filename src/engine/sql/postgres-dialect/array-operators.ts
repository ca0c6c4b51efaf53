import { postgresError } from '../postgres-errors';
import type { Level } from './level';
import { macroArgument, operandsOf } from './operands';
import type { LevelRewrite, RewriteLog } from './pass';
import { stringValue } from './literals';
import { listLiteral } from './literal-inputs';
import { parseArrayText } from './pg-array-literal';
import { isToken, render } from './token-tree';

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
export const isArray = (operand: string) => arrayOperands.some((pattern) => pattern.test(operand.trim()));

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
  const written = terms.map(([from, to]) => level.text(from, to));
  if (!written.some(isArray)) {
    // Beside text a bare NULL is text; DuckDB folds the concatenation to a NULL typed integer.
    const textNull = written.some((text) => /^null$/i.test(text)) && written.some((text) => /^'/.test(text));
    if (textNull && level.canReplace(start, end) && level.replace(start, end, `CAST(${level.text(start, end)} AS VARCHAR)`)) log.add('text || NULL is text');
    return end;
  }
  // Beside an array an untyped text literal is array text.
  const texts = written.map(arrayText);
  let sql = texts[0]!;
  let array = isArray(sql);
  // Two lists DuckDB joins itself: only an element, or array text read as a list, needs a rewrite.
  let changed = texts.some((text, i) => text !== written[i]);
  for (const text of texts.slice(1)) {
    const next = isArray(text);
    if (array !== next) changed = true;
    sql =
      array && next ? `list_concat(${sql}, ${text})` : array ? `list_append(${sql}, ${text})` : next ? `list_prepend(${sql}, ${text})` : `${sql} || ${text}`;
    array ||= next;
  }
  if (changed && level.canReplace(start, end) && level.replace(start, end, sql)) log.add('array || element → list_append / list_prepend');
  return end;
}

/** `'{1,2}'` as a list literal; text that is no array text raises 22P02 as Postgres does. */
function arrayText(text: string): string {
  if (!/^'(?:[^']|'')*'$/.test(text)) return text;
  const value = stringValue(text)!;
  const items = parseArrayText(value);
  if (items === null) throw postgresError('22P02', `malformed array literal: "${value}"`);
  return listLiteral(items);
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

/** Words after which a bracket is a list, not a subscript. */
const beforeList = new Set([
  'ARRAY',
  'SELECT',
  'WHERE',
  'AND',
  'OR',
  'NOT',
  'THEN',
  'ELSE',
  'WHEN',
  'ON',
  'BY',
  'IN',
  'AS',
  'VALUES',
  'FROM',
  'HAVING',
  'RETURN',
  'IS',
]);

/**
 * A subscript or slice bound that is a negative number: Postgres' arrays start at 1, so `a[-1]` is
 * NULL, a slice starts no earlier than 1 and ends before it (empty); DuckDB counts from the end.
 */
function negativeBounds(level: Level, k: number, log: RewriteLog): void {
  const group = level.group(k, '[');
  if (
    !group ||
    !(
      level.group(k - 1) ||
      level.group(k - 1, '[') ||
      level.token(k - 1, 'quoted-ident') ||
      (level.word(k - 1) !== null && !beforeList.has(level.word(k - 1)!))
    )
  )
    return;
  const parts = render(group.children).split(':');
  const negative = (part: string | undefined) => part !== undefined && /^\s*-\s*[0-9]+\s*$/.test(part) && /[1-9]/.test(part);
  if (!parts.some(negative) || parts.length > 2) return;
  const bounds = parts.length === 1 ? ['NULL'] : [negative(parts[0]) ? '1' : parts[0]!, negative(parts[1]) ? '0' : parts[1]!];
  if (level.replace(k, k, `[${bounds.join(':')}]`)) log.add('negative array subscripts: before the first element');
}

export const translateArrayOperators: LevelRewrite = (level, log) => {
  for (let k = 1; k < level.size; k += 1) {
    // `ARRAY[1, 2][1]`: Postgres subscripts a constructor only in parentheses.
    if (level.group(k, '[') && level.group(k - 1, '[') && level.is(k - 2, 'ARRAY')) throw postgresError('42601', 'syntax error at or near "["');
    if (level.group(k, '[')) negativeBounds(level, k, log);
    if (level.op(k, '||')) k = concatenation(level, k, log);
    else if (level.is(k, 'LIKE', 'ILIKE') && level.is(k + 1, 'ANY', 'SOME', 'ALL') && level.group(k + 2)) quantifiedPattern(level, k, log);
    else if (isSlice(level, k) && level.group(k + 1, '[')) {
      throw postgresError('0A000', 'a slice followed by a subscript reads a multi-dimensional array in Postgres, which DuckDB does not have');
    }
  }
};
