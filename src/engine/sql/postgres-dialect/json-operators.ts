import { postgresError } from '../postgres-errors';
import { jsonPath, pathKeys } from './json-path';
import type { Level } from './level';
import { sqlString, stringValue } from './literals';
import { visiblyJsonb } from './jsonb-operands';
import { macroArgument, operandsOf } from './operands';
import { isArray } from './array-operators';
import type { LevelRewrite, RewriteLog } from './pass';
import { listLiteral } from './literal-inputs';
import { arrayTextToList, parseArrayText } from './pg-array-literal';

/** `j #> '{a,0}'` and `j #>> '{a,0}'`: DuckDB has no path operators, but `->` takes a JSONPath. */
export const translateJsonPathOperators: LevelRewrite = (level, log) => {
  for (let k = 1; k + 1 < level.size; k += 1) {
    if (!level.op(k, '#>', '#>>')) continue;
    const literal = level.node(k + 1);
    if (literal?.type !== 'token' || literal.token.kind !== 'string') continue;
    const value = stringValue(literal.token.text);
    const keys = value === null ? null : pathKeys(value);
    if (keys === null) continue;
    const arrow = level.op(k, '#>') ? '->' : '->>';
    if (level.replace(k, k + 1, `${arrow} ${sqlString(jsonPath(keys))}`)) log.add('#> / #>> → -> / ->> with a JSONPath');
  }
};

/**
 * Whether an operand is visibly JSON: a JSON object or array literal, or ending in a cast to json.
 * Only the operand's last tokens are read, never its whole text, which may be a long chain.
 */
function looksLikeJson(level: Level, from: number, to: number): boolean {
  if (to > from && level.is(to, 'JSON') && level.op(to - 1, '::') && level.onlySpaceBetween(to - 1, to)) return true;
  if (visiblyJsonb(level, from, to)) return true;
  const value = from === to && level.token(from, 'string') ? stringValue(level.text(from, to)) : null;
  if (value === null) return false;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    return false;
  }
}

/** A key list operand of `?|` and `?&`: `array['a','b']` as written, Postgres array text as a list. */
function keyList(level: Level, from: number, to: number): string {
  const text = level.text(from, to);
  const value = from === to && level.token(from, 'string') ? stringValue(text) : null;
  return (value === null ? null : arrayTextToList(value)) ?? text;
}

/**
 * Containment and key tests: `@>` and `<@` between JSON values become json_contains (they stay
 * list containment otherwise), `?`, `?|` and `?&` test the top-level keys of an object, the string
 * elements of an array, or a string itself.
 */
export const translateJsonKeyOperators: LevelRewrite = (level, log) => {
  for (let k = 1; k + 1 < level.size; k += 1) {
    const isKeyTest = level.token(k, 'param', '?') || level.op(k, '?|', '?&');
    const isContainment = level.op(k, '@>', '<@');
    if (!isKeyTest && !isContainment) continue;
    const operands = operandsOf(level);
    const start = operands.leftOf(k);
    const end = operands.rightOf(k);
    if (start === -1 || end === -1 || !level.canReplace(start, end)) continue;
    if (isContainment && !looksLikeJson(level, start, k - 1) && !looksLikeJson(level, k + 1, end)) {
      arrayContainment(level, k, start, end, log);
      continue;
    }
    const left = macroArgument(level.text(start, k - 1));
    const right = level.text(k + 1, end);
    let sql: string | null = null;
    if (level.token(k, 'param', '?')) sql = `pgx_jsonb_exists(${left}, ${right})`;
    else if (level.op(k, '?|')) sql = `pgx_jsonb_exists_any(${left}, ${keyList(level, k + 1, end)})`;
    else if (level.op(k, '?&')) sql = `pgx_jsonb_exists_all(${left}, ${keyList(level, k + 1, end)})`;
    else sql = level.op(k, '@>') ? `json_contains(${left}, ${right})` : `json_contains(${right}, ${left})`;
    if (sql !== null && level.replace(start, end, sql)) log.add(isKeyTest ? 'jsonb ? / ?| / ?& → key and element tests' : 'jsonb @> / <@ → json_contains');
  }
};

/**
 * `a @> b` of arrays: Postgres never finds a NULL element (no NULL equals another), DuckDB's list
 * containment does. Rewritten where an operand is visibly an array and the contained one visibly
 * holds a NULL; other containments stay DuckDB's.
 */
function arrayContainment(level: Level, k: number, start: number, end: number, log: RewriteLog): void {
  // `(a @> b) @> c`: a chain on the left is no array; its text is never read.
  if (operandsOf(level).startOf(k - 1) !== start) return;
  // Beside an array, an untyped text literal is array text.
  const [left, right] = [listOf(level.text(start, k - 1)), listOf(level.text(k + 1, end))];
  if ((left !== level.text(start, k - 1) && isArray(right)) || (right !== level.text(k + 1, end) && isArray(left))) {
    if (level.replace(start, end, `${left} ${level.text(k, k)} ${right}`)) log.add('array @> / <@: array text read as a list');
    return;
  }
  const contained = level.op(k, '@>') ? right : left;
  if ((!isArray(left) && !isArray(right)) || !/\bnull\b/i.test(contained)) return;
  const container = level.op(k, '@>') ? left : right;
  if (level.replace(start, end, `pgx_array_contains(${container}, ${contained})`)) log.add('array @> / <@: NULL elements are never contained');
}

/** A text literal that is array text as a list literal; any other operand as it is. */
function listOf(operand: string): string {
  const value = /^'(?:[^']|'')*'$/.test(operand) ? stringValue(operand) : null;
  const items = value === null ? null : parseArrayText(value);
  return items === null ? operand : listLiteral(items);
}

/**
 * DuckDB parses `->` with the low precedence of its lambda arrow, so `j -> 'a' IS NULL` would read
 * as `j -> ('a' IS NULL)`. A chain of `->` / `->>` with literal keys is parenthesised unless it is
 * already delimited on both sides. A chain compared with a number or boolean literal is refused as
 * Postgres refuses it (jsonb or text against an integer: 42883); DuckDB would cast one side.
 */
export const translateJsonArrows: LevelRewrite = (level, log) => {
  for (let k = 1; k + 1 < level.size; k += 1) {
    if (!level.op(k, '->', '->>') || !isKeyLiteral(level, k + 1)) continue;
    const operands = operandsOf(level);
    const start = operands.leftOf(k);
    if (start === -1) continue;
    let last = k;
    let end = operands.endOf(k + 1);
    while (level.op(end + 1, '->', '->>') && isKeyLiteral(level, end + 2)) {
      last = end + 1;
      end = operands.endOf(end + 2);
    }
    if (end === -1) continue;
    refuseLiteralComparison(level, start, end, level.op(last, '->') ? 'jsonb' : 'text');
    if (level.op(last, '->>') && !scalarTextAlike(level, start, end) && visiblyJsonb(level, start, k - 1)) {
      // DuckDB's ->> gives an object or array member as its compact text in written order; jsonb's text is its own.
      const member = `${level.text(start, last - 1)} -> ${level.text(last + 1, end)}`;
      if (level.canReplace(start, end) && level.replace(start, end, `pgx_jsonb_text(${macroArgument(member)})`)) log.add('jsonb ->> → jsonb text of a member');
      k = end;
      continue;
    }
    const delimitedBefore = start === 0 || level.punct(start - 1, ',') || level.is(start - 1, 'SELECT');
    const delimitedAfter = end === level.size - 1 || level.punct(end + 1, ',') || level.is(end + 1, 'AS', 'FROM');
    if (level.op(k, '->') && !(delimitedBefore && delimitedAfter) && level.canReplace(start, end) && level.replace(start, end, `(${level.text(start, end)})`)) {
      log.add('-> chains parenthesised (DuckDB gives -> lambda precedence)');
    }
    k = end;
  }
};

const comparisons = ['=', '<>', '!=', '<', '>', '<=', '>='];

/**
 * Whether a member's text at `start..end` gives the same answer as DuckDB's text of it, whatever the
 * member: tested for NULL, or for (in)equality with a text literal that is no object or array. The
 * jsonb text of an object or array costs DuckDB hundreds of nodes to bind (json-macros.ts), and such
 * filters are most of what `->>` is written for.
 */
function scalarTextAlike(level: Level, start: number, end: number): boolean {
  if (level.is(end + 1, 'IS') && (level.is(end + 2, 'NULL') || (level.is(end + 2, 'NOT') && level.is(end + 3, 'NULL')))) return true;
  const scalarLiteral = (k: number) => level.token(k, 'string') && !/^[\s]*[[{]/.test(stringValue(level.text(k, k)) ?? '{');
  const equality = ['=', '<>', '!='];
  return (level.op(end + 1, ...equality) && scalarLiteral(end + 2)) || (level.op(start - 1, ...equality) && scalarLiteral(start - 2));
}

/** The type Postgres gives a literal a comparison cannot read as jsonb or text, or null. */
function literalType(level: Level, k: number): string | null {
  const signed = level.op(k, '-', '+') ? k + 1 : k;
  if (level.token(signed, 'number')) return /[.e]/i.test(level.text(signed, signed)) ? 'numeric' : 'integer';
  return level.is(k, 'TRUE', 'FALSE') ? 'boolean' : null;
}

function refuseLiteralComparison(level: Level, start: number, end: number, type: string): void {
  const after = level.op(end + 1, ...comparisons) ? literalType(level, end + 2) : null;
  const before = start >= 2 && level.op(start - 1, ...comparisons) && !level.op(start - 3, '-', '+') ? literalType(level, start - 2) : null;
  if (after !== null) throw postgresError('42883', `operator does not exist: ${type} ${level.text(end + 1, end + 1)} ${after}`);
  if (before !== null) throw postgresError('42883', `operator does not exist: ${before} ${level.text(start - 1, start - 1)} ${type}`);
}

function isKeyLiteral(level: Level, k: number): boolean {
  return level.token(k, 'string') || level.token(k, 'number') || (level.op(k, '-') && level.token(k + 1, 'number'));
}
