import { isArray } from './array-operators';
import { postgresTypeName } from './figure-name';
import { visiblyJsonb } from './jsonb-operands';
import { Level } from './level';
import { stringValue } from './literals';
import { castsOf, operandsOf, typeEnd } from './operands';
import type { LevelRewrite, RewriteLog } from './pass';
import { callNodes, fragment, significant, splitArguments, type SqlNode } from './token-tree';

/**
 * Casts that read text by Postgres' input rules. DuckDB reads `'4.2'::int` as 4, `'on'::boolean` not
 * at all, `'Jan 15 2024'::date` and `'P1D'::interval` not at all, and ignores the length of
 * `varchar(n)`; Postgres refuses the first, reads the others and cuts the text to n characters. A
 * cast to one of these types becomes a macro (cast-macros.ts) that reads text the Postgres way and
 * is DuckDB's own CAST for every other type, decided when DuckDB binds the statement.
 *
 * Literals are judged here instead: an integer or boolean literal was read by literal-inputs.ts, a
 * number casts alike in both, and a date or time literal DuckDB reads as Postgres does (ISO) stays
 * as written, so the common `date '2024-01-15'` costs nothing.
 */
const macros: Readonly<Record<string, string>> = {
  int2: 'pgx_int2',
  int4: 'pgx_int4',
  int8: 'pgx_int8',
  bool: 'pgx_bool',
  date: 'pgx_date',
  timestamp: 'pgx_timestamp',
  timestamptz: 'pgx_timestamptz',
  time: 'pgx_time',
  interval: 'pgx_interval',
  varchar: 'pgx_varchar',
  bpchar: 'pgx_bpchar',
};

/** Text DuckDB reads as Postgres does, by type: other text goes through the macro. */
const isoText: Readonly<Record<string, RegExp>> = {
  date: /^\s*\d{4}-\d{2}-\d{2}\s*$/,
  // Beyond microseconds Postgres rounds the fraction and DuckDB cuts it.
  timestamp: /^\s*\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?\s*$/,
  timestamptz: /^\s*\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)?)?)?\s*$/,
  // DuckDB reads a minus before an interval's part, next to its number, and no plus.
  interval: /^\s*(?![^+]*[+-]\s)[^\sPp+][^+]*$/,
  time: /./,
};

interface Target {
  /** The macro's name and what follows the operand in its call (`, 3)` for varchar(3)). */
  macro: string;
  close: string;
  type: string;
}

/** The operand a cast applies to: positions of a level. */
interface Operand {
  level: Level;
  from: number;
  to: number;
}

/** The macro for the type written at `from..to`, or null when DuckDB's cast already does what Postgres' does. */
function targetOf(level: Level, from: number, to: number, operand?: Operand): Target | null {
  if (level.group(to + 1, '[') || level.group(to, '[')) return null;
  const type = postgresTypeName(level, from, to);
  // An array's text is Postgres' {1,2}, not DuckDB's [1, 2].
  if (type === 'text' && operand !== undefined && isArray(operand.level.text(operand.from, operand.to))) return { macro: 'pgx_text', close: ')', type };
  // jsonb's text (also as varchar): blanks after colons and commas, keys in jsonb's order.
  if ((type === 'text' || (type === 'varchar' && !level.group(to))) && operand !== undefined && visiblyJsonb(operand.level, operand.from, operand.to))
    return { macro: 'pgx_jsonb_out', close: ')', type };
  const macro = macros[type];
  if (!macro) return null;
  if (type === 'varchar' || type === 'bpchar') {
    const size = level.group(to);
    const length = size ? level.text(to, to).slice(1, -1).trim() : type === 'bpchar' ? '1' : null;
    return length !== null && /^\d+$/.test(length) ? { macro, close: `, ${length})`, type } : null;
  }
  // `interval '1' day`, `interval(3)`: the fields are DuckDB's to read.
  return level.group(to) ? null : { macro, close: ')', type };
}

/**
 * Whether a literal operand needs no macro: its text is read alike, or literal-inputs.ts read it. A
 * parameter marker is bound to a typed value, not read from text: DuckDB's cast is the one, and a
 * macro around it would leave the statement's result types unknown until the value is there.
 */
function readAlike(literal: SqlNode | undefined, type: string): boolean {
  if (literal?.type !== 'token') return false;
  if (literal.token.kind === 'param') return true;
  if (literal.token.kind === 'number') return type !== 'varchar' && type !== 'bpchar';
  if (literal.token.kind !== 'string') return false;
  if (['int2', 'int4', 'int8', 'bool'].includes(type)) return true;
  const text = stringValue(literal.token.text);
  return text !== null && (isoText[type]?.test(text) ?? false);
}

/**
 * `x::int::text`: every cast of the chain that needs a macro wraps what precedes it. The chain is
 * left alone when something inside it was rewritten already (a cast inside a CASE that is cast).
 */
function rewriteChain(level: Level, start: number, log: RewriteLog): void {
  let nodes: SqlNode[] | null = null;
  let from = start;
  let last = -1;
  const written: Target[] = [];
  for (const cast of castsOf(level, start)) {
    const target = targetOf(level, cast.at + 1, cast.typeLast, nodes === null ? { level, from, to: cast.at - 1 } : undefined);
    if (!target || (cast.at === start + 1 && readAlike(level.node(start), target.type))) continue;
    const operand = [...(nodes ?? []), ...level.slice(from, cast.at - 1)];
    nodes = callNodes(target.macro, operand, target.close.slice(0, -1));
    written.push(target);
    from = cast.typeLast + 1;
    last = cast.typeLast;
  }
  if (nodes === null || !level.canReplace(start, last)) return;
  if (level.replace(start, last, nodes)) wroteCalls(log, written);
}

/** The operand is handed over as it was; the calls around it are new text, which the budget and the vocabulary learn. */
function wroteCalls(log: RewriteLog, targets: readonly Target[]): void {
  log.add('casts read text by Postgres input rules');
  const names = targets.map((target) => target.macro).join(' ');
  log.wrote(
    targets.reduce((characters, target) => characters + target.macro.length + target.close.length + 1, 0),
    fragment(names),
  );
}

/** `CAST(x AS date)`. */
function rewriteCastCall(level: Level, k: number, log: RewriteLog): void {
  const group = level.group(k + 1)!;
  const inner = new Level(group.children);
  let as = -1;
  for (let j = 1; j < inner.size; j += 1) if (inner.is(j, 'AS')) as = j;
  if (as <= 0 || typeEnd(inner, as + 1) !== inner.size - 1) return;
  const target = targetOf(inner, as + 1, inner.size - 1, { level: inner, from: 0, to: as - 1 });
  if (!target || (as === 1 && readAlike(inner.node(0), target.type))) return;
  const operand = splitArguments(group.children).length === 1 ? sliceBefore(group.children, inner, as) : null;
  if (operand && level.replace(k, k + 1, callNodes(target.macro, operand, target.close.slice(0, -1)))) wroteCalls(log, [target]);
}

/** The nodes of a group before its meaningful position `k`, without the blanks before it. */
function sliceBefore(children: readonly SqlNode[], inner: Level, k: number): SqlNode[] {
  const before = children.slice(0, children.indexOf(inner.node(k)!));
  while (before.length > 0 && !significant(before.at(-1)!)) before.pop();
  return before;
}

/** `date 'Jan 15 2024'`: a typed literal is a cast of its text. */
function rewriteTypedLiteral(level: Level, k: number, log: RewriteLog): void {
  const last = typeEnd(level, k);
  if (last === -1 || !level.token(last + 1, 'string') || level.op(k - 1, '::')) return;
  const target = targetOf(level, k, last);
  if (!target || target.type === 'varchar' || target.type === 'bpchar' || readAlike(level.node(last + 1), target.type)) return;
  // `interval '1' day`: the field names how DuckDB reads the text.
  if (target.type === 'interval' && level.word(last + 2) !== null && /^(YEAR|MONTH|DAY|HOUR|MINUTE|SECOND)S?$/.test(level.word(last + 2)!)) return;
  if (level.replace(k, last + 1, `${target.macro}(${level.text(last + 1, last + 1)}${target.close}`)) log.add('casts read text by Postgres input rules');
}

const typedLiteralWords = new Set(['DATE', 'TIMESTAMP', 'TIMESTAMPTZ', 'INTERVAL', 'TIME']);

export const translateCasts: LevelRewrite = (level, log) => {
  // Inner chains first (a CASE's own operands come after it): an outer chain holding an edit is left
  // alone. The level's operands are found only where it holds a cast.
  let casts = false;
  for (let k = 0; k < level.size && !casts; k += 1) casts = level.op(k, '::');
  if (casts) for (const start of [...operandsOf(level).starts()].reverse()) rewriteChain(level, start, log);
  for (let k = 0; k < level.size; k += 1) {
    if (level.is(k, 'CAST') && level.group(k + 1)?.closed) rewriteCastCall(level, k, log);
    else if (typedLiteralWords.has(level.word(k) ?? '')) rewriteTypedLiteral(level, k, log);
  }
};
