import type { Level } from './level';
import type { LevelRewrite, RewriteLog } from './pass';
import { meaningful, render, renderTrimmed, splitArguments, type SqlNode } from './token-tree';

/**
 * Postgres gives COALESCE, GREATEST, LEAST and NULLIF arguments, CASE results, an IN list with its
 * operand, and ARRAY[…] elements one common type (its select_common_type): an untyped literal
 * (`'none'`) takes the type of the others and is read as it when the statement is analysed, so
 * `coalesce(qty, 'none')` raises 22P02 whatever the rows. DuckDB resolves the same type but reads
 * the literal only for a row that reaches it. The first typed item becomes `pgx_untyped(x, [typed
 * items][1], [literals])`, which reads every literal as the items' common type while DuckDB binds the
 * statement and is `x` after that (type-resolution-macros.ts). Where every typed item is a constant,
 * DuckDB reads the literal while binding already, and the statement stays as it is. (UNION,
 * INTERSECT and EXCEPT are checked from their branches' types: set-operations.ts.)
 *
 * Two arrays compared (`=`, `<>`, `<`, `@>`, `&&`, …) must have one element type in Postgres
 * (integer[] = bigint[] has no operator, 42883); DuckDB casts one side. Where both are ARRAY[…]
 * constructors, the first element of the left one carries the check (`pgx_array_pair`), so the
 * operands stay visibly arrays for the passes after this one.
 */
export const translateTypeResolution: LevelRewrite = (level, log) => {
  const cases: { results: number[][]; open: number }[] = [];
  for (let k = 0; k < level.size; k += 1) {
    const word = level.word(k);
    if (word !== null && commonTypeCalls.has(word) && level.group(k + 1)?.closed) resolveGroup(level, k + 1, 0, log);
    else if (word === 'ARRAY' && level.group(k + 1, '[')?.closed) {
      if (!resolveGroup(level, k + 1, 0, log)) checkArrayPair(level, k, log);
    } else if (word === 'IN' && level.group(k + 1)?.closed) resolveIn(level, k, log);
    else if (word === 'CASE') cases.push({ results: [], open: -1 });
    else if (cases.length > 0 && (word === 'WHEN' || word === 'ELSE' || word === 'THEN' || word === 'END')) {
      const current = cases.at(-1)!;
      if (current.open !== -1) current.results.push([current.open, k - 1]);
      current.open = word === 'THEN' || word === 'ELSE' ? k + 1 : -1;
      if (word === 'END') resolveRanges(level, cases.pop()!.results, log);
    }
  }
};

const commonTypeCalls = new Set(['COALESCE', 'GREATEST', 'LEAST', 'NULLIF']);

type Kind = 'untyped' | 'null' | 'constant' | 'text' | 'typed';

/** Functions whose result is text whatever their arguments. */
const textFunctions = new Set(
  ['SUBSTRING', 'SUBSTR', 'UPPER', 'LOWER', 'TRIM', 'BTRIM', 'LTRIM', 'RTRIM', 'LEFT', 'RIGHT', 'CONCAT', 'CONCAT_WS', 'REPLACE', 'LPAD', 'RPAD'].concat([
    'INITCAP',
    'TO_CHAR',
    'MD5',
    'FORMAT',
    'SPLIT_PART',
    'REGEXP_REPLACE',
    'TRANSLATE',
    'REPEAT',
    'REVERSE',
    'CHR',
    'QUOTE_IDENT',
    'QUOTE_LITERAL',
  ]),
);

/** Aggregates and windows: DuckDB chooses a macro's overload before it knows their type, so they are no witness. */
const aggregateWords = new Set(
  ['SUM', 'AVG', 'COUNT', 'MIN', 'MAX', 'ARRAY_AGG', 'STRING_AGG', 'BOOL_AND', 'BOOL_OR', 'EVERY', 'OVER', 'FILTER'].concat([
    'STDDEV',
    'STDDEV_POP',
    'STDDEV_SAMP',
    'VARIANCE',
    'VAR_POP',
    'VAR_SAMP',
    'JSON_AGG',
    'JSONB_AGG',
    'MODE',
    'PERCENTILE_CONT',
    'PERCENTILE_DISC',
    'CORR',
  ]),
);

/** Whether an item holds an aggregate or a window call at any depth. */
function aggregates(nodes: readonly SqlNode[]): boolean {
  return nodes.some((node) =>
    node.type === 'group' ? aggregates(node.children) : node.token.kind === 'word' && aggregateWords.has(node.token.text.toUpperCase()),
  );
}

/** What an item is: an untyped text literal, NULL, a constant DuckDB reads while binding, or anything else. */
function kindOf(nodes: readonly SqlNode[]): Kind {
  const items = meaningful(nodes);
  const first = items[0];
  if (items.length === 1 && first?.type === 'token') {
    if (first.token.kind === 'string') return /^[eE]?'/.test(first.token.text) || first.token.text.startsWith('$') ? 'untyped' : 'constant';
    if (first.token.kind === 'number') return 'constant';
    const word = first.token.kind === 'word' ? first.token.text.toUpperCase() : '';
    if (word === 'NULL') return 'null';
    if (word === 'TRUE' || word === 'FALSE') return 'constant';
  }
  if (items.length === 2 && items[0]?.type === 'token' && items[0].token.kind === 'op' && /^[+-]$/.test(items[0].token.text)) {
    return items[1]?.type === 'token' && items[1].token.kind === 'number' ? 'constant' : 'typed';
  }
  // A call that returns text: the literals are text too, and need no check.
  if (
    items.length === 2 &&
    first?.type === 'token' &&
    first.token.kind === 'word' &&
    items[1]?.type === 'group' &&
    textFunctions.has(first.token.text.toUpperCase())
  )
    return 'text';
  // A typed literal: date '2024-01-01'.
  if (items.length === 2 && items[0]?.type === 'token' && items[0].token.kind === 'word' && items[1]?.type === 'token' && items[1].token.kind === 'string')
    return 'constant';
  return items.length === 0 ? 'null' : 'typed';
}

/** Whether an untyped literal sits beside an item whose type only DuckDB's binder knows (and can tell a macro). */
function needsCheck(items: readonly (readonly SqlNode[])[], kinds: readonly Kind[]): boolean {
  if (!kinds.includes('untyped') || !kinds.includes('typed') || kinds.includes('text')) return false;
  return !items.some((item, i) => (kinds[i] === 'typed' || kinds[i] === 'constant') && aggregates(item));
}

/** The call with the first typed item wrapped, or null when nothing needs a check. */
function resolvedItems(items: readonly SqlNode[][]): string[] | null {
  const kinds = items.map(kindOf);
  const first = kinds.indexOf('typed');
  if (!needsCheck(items, kinds)) return null;
  const typed = items.filter((_, i) => kinds[i] === 'typed' || kinds[i] === 'constant').map(renderTrimmed);
  const literals = items.filter((_, i) => kinds[i] === 'untyped').map(renderTrimmed);
  return items.map((item, i) => (i === first ? wrap(item, typed, literals) : render(item)));
}

function wrap(item: readonly SqlNode[], typed: readonly string[], literals: readonly string[]): string {
  const text = render(item);
  const lead = /^\s*/.exec(text)![0];
  const trail = /\s*$/.exec(text)![0];
  return `${lead}pgx_untyped(${renderTrimmed(item)}, ${witnessOf(typed)}, [${literals.join(', ')}])${trail}`;
}

/** A value of the typed items' common type: the item itself, or the first element of a list of them all. */
function witnessOf(typed: readonly string[]): string {
  return typed.length === 1 ? typed[0]! : `[${typed.join(', ')}][1]`;
}

/** A call's arguments or a constructor's elements (from `skip` on): the group rewritten when one needs the check. */
function resolveGroup(level: Level, k: number, skip: number, log: RewriteLog): boolean {
  const group = level.node(k);
  if (group?.type !== 'group') return false;
  const parts = splitArguments(group.children);
  const resolved = resolvedItems(parts.slice(skip));
  if (resolved === null) return false;
  const close = group.open === '[' ? ']' : ')';
  const text = `${group.open}${[...parts.slice(0, skip).map(render), ...resolved].join(',')}${close}`;
  if (level.canReplace(k, k) && level.replace(k, k, text)) log.add('untyped literals read as the common type when the statement is analysed');
  return true;
}

/** `x [NOT] IN ('a', 'b')`: the operand and the list resolve together. */
function resolveIn(level: Level, k: number, log: RewriteLog): void {
  const group = level.group(k + 1)!;
  const parts = splitArguments(group.children);
  if (parts.length === 0 || /^\s*(SELECT|WITH|VALUES)\b/i.test(render(parts[0]!))) return;
  const last = level.is(k - 1, 'NOT') ? k - 2 : k - 1;
  const start = operandStart(level, last);
  if (start === -1) return;
  const operand = level.slice(start, last);
  const kinds = parts.map(kindOf);
  if (!needsCheck([operand, ...parts], [kindOf(operand), ...kinds]) || kindOf(operand) !== 'typed') return;
  const typed = [renderTrimmed(operand), ...parts.filter((_, i) => kinds[i] === 'typed' || kinds[i] === 'constant').map(renderTrimmed)];
  const literals = parts.filter((_, i) => kinds[i] === 'untyped').map(renderTrimmed);
  if (level.canReplace(start, last) && level.replace(start, last, `pgx_untyped(${renderTrimmed(operand)}, ${witnessOf(typed)}, [${literals.join(', ')}])`)) {
    log.add('untyped literals read as the common type when the statement is analysed');
  }
}

/** The start of a plain operand ending at `last` (a name, a qualified name, a call): -1 for anything an operator joins. */
function operandStart(level: Level, last: number): number {
  let start = last;
  if (level.group(start)) start -= 1;
  const word = level.word(start);
  if (word === null || notOperands.has(word)) return -1;
  while (level.punct(start - 1, '.') && level.word(start - 2) !== null) start -= 2;
  const before = level.node(start - 1);
  return before?.type === 'token' && before.token.kind === 'op' ? -1 : start;
}

/** Words that end no plain operand: a CASE's END, a clause's or an operator's keyword. */
const notOperands = new Set(['END', 'AND', 'OR', 'NOT', 'WHERE', 'ON', 'WHEN', 'THEN', 'ELSE', 'SELECT', 'HAVING', 'BY', 'IS', 'NULL', 'TRUE', 'FALSE']);

/** CASE results, each a range of positions at the level. */
function resolveRanges(level: Level, ranges: readonly number[][], log: RewriteLog): void {
  const items = ranges.map(([from, to]) => level.slice(from!, to!));
  const kinds = items.map(kindOf);
  const first = kinds.indexOf('typed');
  if (!needsCheck(items, kinds)) return;
  const typed = items.filter((_, i) => kinds[i] === 'typed' || kinds[i] === 'constant').map(renderTrimmed);
  const literals = items.filter((_, i) => kinds[i] === 'untyped').map(renderTrimmed);
  const [from, to] = ranges[first]!;
  if (level.canReplace(from!, to!) && level.replace(from!, to!, wrap(items[first]!, typed, literals).trim())) {
    log.add('untyped literals read as the common type when the statement is analysed');
  }
}

const arrayComparisons = ['=', '<>', '!=', '<', '>', '<=', '>=', '@>', '<@', '&&'];

/** `ARRAY[…] op ARRAY[…]`: the left array's first element carries the check that both have one element type. */
function checkArrayPair(level: Level, k: number, log: RewriteLog): void {
  const op = level.node(k + 2);
  if (op?.type !== 'token' || op.token.kind !== 'op' || !arrayComparisons.includes(op.token.text)) return;
  if (!level.is(k + 3, 'ARRAY') || !level.group(k + 4, '[')?.closed || level.group(k + 5, '[') || level.op(k + 5, '::')) return;
  if (level.node(k - 1)?.type === 'token' && (level.node(k - 1) as { token: { kind: string } }).token.kind === 'op') return;
  const left = level.group(k + 1, '[')!;
  const parts = splitArguments(left.children);
  if (parts.length === 0 || meaningful(parts[0]!).length === 0) return;
  const l = level.text(k, k + 1);
  const r = level.text(k + 3, k + 4);
  const first = `pgx_array_pair(${renderTrimmed(parts[0]!)}, ${l}, ${r}, '${op.token.text}')`;
  const text = `[${[first, ...parts.slice(1).map(render)].join(',')}]`;
  if (level.canReplace(k + 1, k + 1) && level.replace(k + 1, k + 1, text)) log.add('arrays compared: one element type, as in Postgres');
}
