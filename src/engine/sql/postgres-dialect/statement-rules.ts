import { postgresError } from '../postgres-errors';
import { startsFromItem } from './clause';
import type { Level } from './level';
import { stringValue } from './literals';
import type { LevelRewrite } from './pass';
import { meaningful, splitArguments, wordOf, type SqlNode } from './token-tree';

/**
 * What Postgres refuses when it analyses a statement and DuckDB answers: each rule raises Postgres'
 * error from the statement as written, and rewrites nothing. Each runs only where the statement
 * holds its words (see translate.ts).
 */

/** `LIMIT -1`, `OFFSET -1`: a negative count (DuckDB raises one error for both). */
export const checkRowCounts: LevelRewrite = (level) => {
  for (let k = 0; k + 2 < level.size; k += 1) {
    if (!level.is(k, 'LIMIT', 'OFFSET') || !level.op(k + 1, '-') || !level.token(k + 2, 'number') || !/[1-9]/.test(level.text(k + 2, k + 2))) continue;
    throw level.is(k, 'LIMIT') ? postgresError('2201W', 'LIMIT must not be negative') : postgresError('2201X', 'OFFSET must not be negative');
  }
};

/**
 * Words that may follow a FROM item where an alias would stand, by Postgres' grammar: not clause.ts's
 * fromItemEnders, which are DuckDB's (to Postgres `(SELECT 1) semi` is a subquery aliased semi).
 */
const afterFromItem = new Set([
  'WHERE',
  'GROUP',
  'HAVING',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'FETCH',
  'WINDOW',
  'JOIN',
  'INNER',
  'LEFT',
  'RIGHT',
  'FULL',
  'CROSS',
  'NATURAL',
  'ON',
  'USING',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'QUALIFY',
]);
const queryStarts = new Set(['SELECT', 'VALUES', 'WITH', 'TABLE']);

/** `FROM (SELECT …)`: Postgres 15 wants an alias for a subquery in FROM (DuckDB makes one up). */
export const checkSubqueryAliases: LevelRewrite = (level) => {
  for (let k = 1; k < level.size; k += 1) {
    const group = level.group(k);
    if (!group || !queryStarts.has(wordOf(meaningful(group.children)[0]) ?? '') || !startsFromItem(level, k)) continue;
    const next = level.word(k + 1);
    const aliased = level.is(k + 1, 'AS') || level.token(k + 1, 'quoted-ident') || (next !== null && !afterFromItem.has(next));
    if (!aliased) throw postgresError('42601', 'subquery in FROM must have an alias');
  }
};

/**
 * Window calls Postgres refuses: `count(DISTINCT x) OVER (…)` (0A000), `nth_value(x, 0)` (22016),
 * and a negative frame offset (22013).
 */
export const checkWindows: LevelRewrite = (level) => {
  for (let k = 1; k < level.size; k += 1) {
    if (level.is(k, 'OVER')) checkWindowCall(level, level.is(k - 2, 'FILTER') ? k - 3 : k - 1);
    else if (level.is(k, 'ROWS', 'RANGE', 'GROUPS')) checkFrame(level, k);
  }
};

function checkWindowCall(level: Level, args: number): void {
  const group = level.group(args);
  if (!group) return;
  if (wordOf(meaningful(group.children)[0]) === 'DISTINCT') throw postgresError('0A000', 'DISTINCT is not implemented for window functions');
  const offset = level.is(args - 1, 'NTH_VALUE') ? meaningful(splitArguments(group.children)[1] ?? []) : [];
  const text = offset.map((node) => (node.type === 'token' ? node.token.text : '(')).join('');
  if (/^-?[0-9]+$/.test(text) && Number(text) <= 0) throw postgresError('22016', 'argument of nth_value must be greater than zero');
}

/** `ROWS BETWEEN -1 PRECEDING AND …`, `RANGE -2 FOLLOWING`. */
function checkFrame(level: Level, k: number): void {
  const start = level.is(k + 1, 'BETWEEN') ? k + 2 : k + 1;
  if (negativeBound(level, start)) throw postgresError('22013', 'frame starting offset must not be negative');
  for (let j = start; j < level.size && !level.is(j, 'EXCLUDE'); j += 1) {
    if (level.is(j, 'AND') && negativeBound(level, j + 1)) throw postgresError('22013', 'frame ending offset must not be negative');
  }
}

const negativeBound = (level: Level, k: number) =>
  level.op(k, '-') && level.token(k + 1, 'number') && /[1-9]/.test(level.text(k + 1, k + 1)) && level.is(k + 2, 'PRECEDING', 'FOLLOWING');

/**
 * `SELECT DISTINCT ON (a) … ORDER BY b, a`: Postgres wants the DISTINCT ON expressions first in the
 * ORDER BY (42P10); DuckDB keeps any row. Keys are compared as written, a qualified column by its
 * name; a key given by position or alias, which it cannot compare for sure, passes.
 */
export const checkDistinctOn: LevelRewrite = (level) => {
  for (let k = 0; k + 2 < level.size; k += 1) {
    const group = level.is(k, 'DISTINCT') && level.is(k + 1, 'ON') ? level.group(k + 2) : null;
    if (!group) continue;
    const aliases = selectAliases(level, k + 3);
    const resolve = (key: string | null) => (key === null ? null : (aliases.get(key) ?? key));
    const keys = splitArguments(group.children).map(keyText).map(resolve);
    const order = orderByAfter(level, k + 3)?.map(resolve) ?? null;
    if (order === null || keys.some((key) => key === null)) continue;
    for (const item of order.slice(0, keys.length)) {
      if (item === null) return;
      if (!keys.includes(item)) throw postgresError('42P10', 'SELECT DISTINCT ON expressions must match initial ORDER BY expressions');
    }
  }
};

/** The select list's aliases (`expr AS name`), each to its expression as compared. */
function selectAliases(level: Level, from: number): Map<string, string | null> {
  const aliases = new Map<string, string | null>();
  let itemStart = from;
  for (let k = from; k < level.size && !level.is(k, 'FROM'); k += 1) {
    if (level.punct(k, ',')) itemStart = k + 1;
    else if (level.is(k, 'AS') && k > itemStart) {
      const name = level.token(k + 1, 'quoted-ident') ? level.text(k + 1, k + 1).slice(1, -1) : level.word(k + 1)?.toLowerCase();
      if (name !== undefined) aliases.set(name, keyText(level.slice(itemStart, k - 1)));
    }
  }
  return aliases;
}

/** The keys of the ORDER BY of this SELECT (before any set operation), without their directions; null when it has none. */
function orderByAfter(level: Level, from: number): (string | null)[] | null {
  for (let k = from; k + 1 < level.size; k += 1) {
    if (level.is(k, 'UNION', 'INTERSECT', 'EXCEPT')) return null;
    if (!level.is(k, 'ORDER') || !level.is(k + 1, 'BY')) continue;
    const nodes: SqlNode[] = [];
    for (let j = k + 2; j < level.size && !level.is(j, 'LIMIT', 'OFFSET', 'FETCH') && !level.punct(j, ';'); j += 1) nodes.push(...level.slice(j, j));
    return splitArguments(nodes).map((key) => keyText(key.filter((node) => !['ASC', 'DESC', 'NULLS', 'FIRST', 'LAST'].includes(wordOf(node) ?? ''))));
  }
  return null;
}

/** A key as compared: its tokens without blanks, lower case; a qualified column by its name; null for a position. */
function keyText(nodes: readonly SqlNode[]): string | null {
  const parts = meaningful(nodes);
  if (parts.length === 1 && parts[0]!.type === 'token' && parts[0]!.token.kind === 'number') return null;
  if (parts.length === 3 && wordOf(parts[0]) !== null && parts[1]!.type === 'token' && parts[1]!.token.text === '.' && wordOf(parts[2]) !== null)
    return wordOf(parts[2])!.toLowerCase();
  return parts.map(render).join(' ').toLowerCase();
}

function render(node: SqlNode): string {
  return node.type === 'token' ? node.token.text : `${node.open}${meaningful(node.children).map(render).join(' ')}`;
}

/**
 * `CASE WHEN … THEN 1 ELSE 'no' END`: Postgres gives an untyped text result the type of the others
 * and reads it when it analyses the statement (22P02); DuckDB reads it only for a row that takes it.
 * Only results that are literals are judged: a column's type is DuckDB's to know.
 */
export const checkCaseLiterals: LevelRewrite = (level) => {
  const open: number[] = [];
  const results: number[][] = [];
  for (let k = 0; k < level.size; k += 1) {
    if (level.is(k, 'CASE')) {
      open.push(k);
      results.push([]);
    } else if (level.is(k, 'THEN', 'ELSE') && results.length > 0) {
      results.at(-1)!.push(k + 1);
    } else if (level.is(k, 'END') && open.length > 0) {
      open.pop();
      judgeLiterals(level, results.pop()!);
    }
  }
};

/** A result that is one literal: its kind and text; null for anything else. */
function literalAt(level: Level, k: number): { kind: 'number' | 'string' | 'null'; text: string } | null {
  const signed = level.op(k, '-', '+') && level.token(k + 1, 'number') ? k + 1 : k;
  const ends = (j: number) => level.is(j + 1, 'WHEN', 'ELSE', 'END');
  if (level.token(signed, 'number') && ends(signed)) return { kind: 'number', text: level.text(k, signed) };
  if (level.token(k, 'string') && ends(k)) return { kind: 'string', text: stringValue(level.text(k, k)) ?? '' };
  return level.is(k, 'NULL') && ends(k) ? { kind: 'null', text: '' } : null;
}

function judgeLiterals(level: Level, starts: readonly number[]): void {
  const literals = starts.map((k) => literalAt(level, k));
  if (literals.some((literal) => literal === null)) return;
  const numbers = literals.filter((literal) => literal!.kind === 'number');
  if (numbers.length === 0) return;
  const integer = numbers.every((literal) => /^[+-]?[0-9]+$/.test(literal!.text));
  for (const literal of literals) {
    if (literal!.kind !== 'string') continue;
    const readable = integer ? /^\s*[+-]?[0-9]+\s*$/ : /^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?\s*$/i;
    if (!readable.test(literal!.text)) throw postgresError('22P02', `invalid input syntax for type ${integer ? 'integer' : 'numeric'}: "${literal!.text}"`);
  }
}
