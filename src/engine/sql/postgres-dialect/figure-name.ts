import { Level } from './level';
import { callEnd, typedLiteralTypes, typeEnd } from './operands';
import { meaningful, splitArguments, type SqlNode } from './token-tree';

/**
 * Postgres' FigureColname over tokens: the name Postgres gives a result column written without an
 * alias. A name has a strength as in Postgres: 2 for a column's, a field's or a function's name, 1
 * for a type name (a cast of something nameless) or `case`, 0 for none (`?column?`). A cast keeps
 * its operand's name when that is strong; a CASE takes its ELSE's when that is strong.
 */
export interface FiguredName {
  name: string;
  strength: 0 | 1 | 2;
}

const nameless: FiguredName = { name: '?column?', strength: 0 };
const strong = (name: string): FiguredName => ({ name, strength: 2 });

/** SQL's niladic functions, which Postgres names like functions. */
const valueFunctions = new Set([
  'CURRENT_DATE',
  'CURRENT_TIME',
  'CURRENT_TIMESTAMP',
  'LOCALTIME',
  'LOCALTIMESTAMP',
  'CURRENT_ROLE',
  'CURRENT_USER',
  'USER',
  'SESSION_USER',
  'CURRENT_CATALOG',
  'CURRENT_SCHEMA',
]);

/** Words that never start a named primary: constants and operators. */
const namelessWords = new Set(['NOT', 'DISTINCT', 'ALL', 'ANY', 'SOME']);

const intervalFields = new Set(['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND', 'TO']);

/** What Postgres' grammar calls the built-in types, by the words written. */
const typeAliases: Readonly<Record<string, string>> = {
  int: 'int4',
  integer: 'int4',
  smallint: 'int2',
  bigint: 'int8',
  real: 'float4',
  'double precision': 'float8',
  decimal: 'numeric',
  dec: 'numeric',
  boolean: 'bool',
  'character varying': 'varchar',
  'char varying': 'varchar',
  char: 'bpchar',
  character: 'bpchar',
  'timestamp with time zone': 'timestamptz',
  'timestamp without time zone': 'timestamp',
  'time with time zone': 'timetz',
  'time without time zone': 'time',
  'bit varying': 'varbit',
};

/** The name Postgres' grammar gives the type written at `from..to` (`int` is int4, `float(10)` float4). */
export function postgresTypeName(level: Level, from: number, to: number): string {
  const words: string[] = [];
  let precision: number | null = null;
  for (let k = from; k <= to; k += 1) {
    const node = level.node(k);
    if (node?.type === 'group') {
      if (node.open === '(' && words.length > 0) precision = Number(level.text(k, k).slice(1, -1));
      continue;
    }
    if (level.punct(k, '.')) words.length = 0;
    else words.push(identifierText(level, k));
  }
  const written = words.join(' ');
  if (written === 'float') return precision !== null && precision <= 24 ? 'float4' : 'float8';
  return typeAliases[written] ?? words.at(-1) ?? '?column?';
}

/** A word as Postgres folds it, or a quoted identifier's text. */
function identifierText(level: Level, k: number): string {
  const node = level.node(k);
  if (node?.type === 'token' && node.token.kind === 'quoted-ident') return node.token.text.slice(1, -1).replaceAll('""', '"');
  return level.word(k)?.toLowerCase() ?? '';
}

/** The name of the expression at positions `from..to` of a level. */
export function figureName(level: Level, from: number, to: number): FiguredName {
  const primary = primaryAt(level, from, to);
  if (!primary) return nameless;
  const end = postfixes(level, primary, to);
  if (end.last === to) return end.figured;
  // `(a, b) OVERLAPS (c, d)` is a call of overlaps() in Postgres' grammar.
  if (level.is(end.last + 1, 'OVERLAPS') && level.group(end.last + 2) && end.last + 2 === to) return strong('overlaps');
  // `x AT TIME ZONE 'UTC'` is a call of timezone() in Postgres' grammar.
  if (level.is(end.last + 1, 'AT') && level.is(end.last + 2, 'TIME') && level.is(end.last + 3, 'ZONE')) {
    const zone = primaryAt(level, end.last + 4, to);
    if (zone && postfixes(level, zone, to).last === to) return strong('timezone');
  }
  return nameless;
}

interface Primary {
  figured: FiguredName;
  /** Its last position. */
  last: number;
}

function primaryAt(level: Level, k: number, to: number): Primary | null {
  if (k > to) return null;
  const node = level.node(k)!;
  if (node.type === 'group') return node.open === '(' ? { figured: parenthesized(node.children), last: k } : null;
  const { kind } = node.token;
  if (kind === 'string' || kind === 'number' || kind === 'param') return { figured: nameless, last: k };
  if (kind === 'quoted-ident') return nameChain(level, k, to);
  if (kind !== 'word') return null;
  const word = level.word(k)!;
  if (namelessWords.has(word)) return null;
  // Postgres' grammar writes `true` as the constant 't' cast to bool.
  if (word === 'TRUE' || word === 'FALSE') return { figured: { name: 'bool', strength: 1 }, last: k };
  if (word === 'NULL') return { figured: nameless, last: k };
  if (word === 'CASE') return caseExpression(level, k, to);
  if (valueFunctions.has(word)) return { figured: strong(word.toLowerCase()), last: level.group(k + 1) ? k + 1 : k };
  const group = level.group(k + 1) ?? level.group(k + 1, '[');
  if (group && ['ARRAY', 'EXISTS', 'ROW'].includes(word)) return { figured: strong(word.toLowerCase()), last: k + 1 };
  if (group && (word === 'CAST' || word === 'TRY_CAST')) return { figured: castCall(group.children), last: k + 1 };
  if (group?.open === '(' && word === 'TRIM') return { figured: strong(trimName(group.children)), last: callEnd(level, k + 1) };
  const literal = typedLiteral(level, k, to);
  if (literal) return literal;
  return nameChain(level, k, to);
}

/** `a.b.c` (a column) or `s.f(…)` (a call, with its WITHIN GROUP, FILTER and OVER). */
function nameChain(level: Level, k: number, to: number): Primary {
  let last = k;
  while (last + 2 <= to && level.punct(last + 1, '.') && (level.word(last + 2) !== null || level.token(last + 2, 'quoted-ident'))) last += 2;
  const name = identifierText(level, last);
  if (level.group(last + 1)) return { figured: strong(name), last: callEnd(level, last + 1) };
  return { figured: strong(name), last };
}

/** `date '…'`, `timestamp with time zone '…'`, `interval '1' day`: a cast of a constant. */
function typedLiteral(level: Level, k: number, to: number): Primary | null {
  if (!typedLiteralTypes.has(level.word(k)!)) return null;
  const typeLast = typeEnd(level, k);
  if (typeLast === -1 || typeLast + 1 > to || !level.token(typeLast + 1, 'string')) return null;
  let last = typeLast + 1;
  while (last + 1 <= to && intervalFields.has(level.word(last + 1) ?? '')) last += 1;
  return { figured: { name: postgresTypeName(level, k, typeLast), strength: 1 }, last };
}

function caseExpression(level: Level, k: number, to: number): Primary | null {
  let depth = 0;
  let elseAt = -1;
  for (let j = k; j <= to; j += 1) {
    if (level.is(j, 'CASE')) depth += 1;
    else if (level.is(j, 'ELSE') && depth === 1) elseAt = j;
    else if (level.is(j, 'END') && --depth === 0) {
      const otherwise = elseAt === -1 ? nameless : figureName(level, elseAt + 1, j - 1);
      return { figured: otherwise.strength === 2 ? otherwise : { name: 'case', strength: 1 }, last: j };
    }
  }
  return null;
}

/** Casts, subscripts, field selection and COLLATE after a primary. */
function postfixes(level: Level, primary: Primary, to: number): Primary {
  let { figured, last } = primary;
  while (last < to) {
    if (level.group(last + 1, '[')) {
      last += 1;
    } else if (level.op(last + 1, '::')) {
      const typeLast = typeEnd(level, last + 2);
      if (typeLast === -1 || typeLast > to) break;
      if (figured.strength <= 1) figured = { name: postgresTypeName(level, last + 2, typeLast), strength: 1 };
      last = typeLast;
    } else if (level.punct(last + 1, '.') && (level.word(last + 2) !== null || level.token(last + 2, 'quoted-ident'))) {
      figured = strong(identifierText(level, last + 2));
      last += 2;
    } else if (level.is(last + 1, 'COLLATE') && last + 2 <= to) {
      last += 2;
    } else {
      break;
    }
  }
  return { figured, last };
}

/** A bracket: a scalar subquery (named after its first column), a row, or an expression. */
function parenthesized(children: readonly SqlNode[]): FiguredName {
  const inner = new Level(children);
  if (inner.size === 0) return nameless;
  if (inner.is(0, 'SELECT', 'WITH', 'VALUES', 'TABLE') || (inner.group(0) && startsQuery(inner))) return strong(firstColumnName(inner));
  if (splitArguments(children).length > 1) return strong('row');
  return figureName(inner, 0, inner.size - 1);
}

function startsQuery(level: Level): boolean {
  for (let k = 0; k < level.size; k += 1) if (level.is(k, 'UNION', 'INTERSECT', 'EXCEPT')) return true;
  const first = level.group(0);
  return first !== null && new Level(first.children).is(0, 'SELECT', 'WITH', 'VALUES');
}

function castCall(children: readonly SqlNode[]): FiguredName {
  const inner = new Level(children);
  let as = -1;
  for (let k = 0; k < inner.size; k += 1) if (inner.is(k, 'AS')) as = k;
  if (as <= 0) return nameless;
  const operand = figureName(inner, 0, as - 1);
  return operand.strength === 2 ? operand : { name: postgresTypeName(inner, as + 1, inner.size - 1), strength: 1 };
}

function trimName(children: readonly SqlNode[]): string {
  const first = meaningful(children)[0];
  const word = first?.type === 'token' ? first.token.text.toUpperCase() : '';
  return word === 'LEADING' ? 'ltrim' : word === 'TRAILING' ? 'rtrim' : 'btrim';
}

/** The name of a query's first result column: its leftmost SELECT's first item, or `column1` of VALUES. */
function firstColumnName(level: Level): string {
  for (let k = 0; k < level.size; k += 1) {
    const group = level.group(k);
    if (group && (k === 0 || level.is(k - 1, 'UNION', 'INTERSECT', 'EXCEPT', 'ALL', 'DISTINCT'))) return firstColumnName(new Level(group.children));
    if (level.is(k, 'VALUES')) return 'column1';
    if (!level.is(k, 'SELECT')) continue;
    const items = selectItems(level, k);
    const first = items[0];
    if (!first) return '?column?';
    return itemName(level, first.from, first.to)?.name ?? '?column?';
  }
  return '?column?';
}

interface SelectItem {
  from: number;
  to: number;
}

/** Words that end a SELECT list at its level. */
const listEnders = new Set([
  'FROM',
  'WHERE',
  'GROUP',
  'HAVING',
  'WINDOW',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'FETCH',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'INTO',
  'QUALIFY',
]);

/** The items of the SELECT list whose SELECT is at `k`. */
export function selectItems(level: Level, k: number): SelectItem[] {
  let start = k + 1;
  if (level.is(start, 'ALL')) start += 1;
  else if (level.is(start, 'DISTINCT')) start += level.is(start + 1, 'ON') && level.group(start + 2) ? 3 : 1;
  const items: SelectItem[] = [];
  let from = start;
  let j = start;
  // DuckDB's struct literals (`{'a': 1, 'b': 2}`) are no brackets of the token tree: their commas are theirs.
  let braces = 0;
  for (; j < level.size; j += 1) {
    if (level.punct(j, '{') || level.token(j, 'op', '{')) braces += 1;
    else if ((level.punct(j, '}') || level.token(j, 'op', '}')) && braces > 0) braces -= 1;
    if (braces > 0) continue;
    const word = level.word(j);
    // `a IS DISTINCT FROM b` keeps its FROM, `percentile_cont(0.5) WITHIN GROUP (…)` its GROUP.
    if (word !== null && listEnders.has(word) && !(word === 'FROM' && level.is(j - 1, 'DISTINCT')) && !(word === 'GROUP' && level.is(j - 1, 'WITHIN'))) break;
    if (level.punct(j, ';')) break;
    if (level.punct(j, ',')) {
      items.push({ from, to: j - 1 });
      from = j + 1;
    }
  }
  if (j > from) items.push({ from, to: j - 1 });
  return items.filter((item) => item.to >= item.from);
}

/** Words an expression may end with: never a bare alias. */
const expressionEnds = new Set(['END', 'NULL', 'TRUE', 'FALSE', 'UNKNOWN', 'PRECISION', 'ZONE', 'VARYING', 'YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND']);
/** Words after which a name is an operand, not an alias. */
const operandBefore = new Set([
  'AS',
  'AND',
  'OR',
  'NOT',
  'IS',
  'IN',
  'LIKE',
  'ILIKE',
  'BETWEEN',
  'SIMILAR',
  'ESCAPE',
  'THEN',
  'ELSE',
  'WHEN',
  'CASE',
  'DISTINCT',
  'FROM',
  'AT',
  'OVER',
  'COLLATE',
  'SELECT',
  'ALL',
  'ANY',
  'SOME',
  'TO',
  'ZONE',
  'OPERATOR',
  'SYMMETRIC',
]);

/**
 * The alias an item gives itself (`expr AS name`, `expr name`), or the name Postgres figures for it;
 * null for `*` and `t.*`. `alias` tells which.
 */
export function itemName(level: Level, from: number, to: number): (FiguredName & { alias: boolean; column: boolean }) | null {
  if (level.op(to, '*') && (to === from || level.punct(to - 1, '.'))) return null;
  const last = level.node(to)!;
  const quoted = last.type === 'token' && last.token.kind === 'quoted-ident';
  if (to > from && level.is(to - 1, 'AS') && (quoted || level.word(to) !== null))
    return { name: identifierText(level, to), strength: 2, alias: true, column: false };
  const lastIsName = quoted || (level.word(to) !== null && !expressionEnds.has(level.word(to)!));
  if (to > from && lastIsName) {
    const before = level.node(to - 1)!;
    const operand = before.type === 'token' && (before.token.kind === 'op' || before.token.kind === 'punct' || operandBefore.has(level.word(to - 1) ?? ''));
    if (!operand) return { name: identifierText(level, to), strength: 2, alias: true, column: false };
  }
  const figured = figureName(level, from, to);
  const column = figured.strength === 2 && isNameChain(level, from, to);
  return { ...(figured.strength === 0 ? nameless : figured), alias: false, column };
}

function isNameChain(level: Level, from: number, to: number): boolean {
  if (from === to && valueFunctions.has(level.word(from) ?? '')) return false;
  for (let k = from; k <= to; k += 1) {
    const even = (k - from) % 2 === 0;
    if (even ? !(level.word(k) !== null || level.token(k, 'quoted-ident')) : !level.punct(k, '.')) return false;
  }
  return true;
}
