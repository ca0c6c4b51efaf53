import { postgresError } from '../postgres-errors';
import { selectItems } from './figure-name';
import { Level } from './level';
import { stringValue } from './literals';
import { parseTree } from './token-tree';

/**
 * Postgres matches the columns of a UNION, INTERSECT or EXCEPT by type category and refuses to mix
 * categories (`SELECT 1 UNION SELECT true`: 42804); DuckDB makes both sides text. A text literal is
 * untyped in Postgres and takes the other side's type (`SELECT 1 UNION SELECT 'a'`: 22P02). The
 * types are DuckDB's to tell: the engine prepares each branch of the statement's own set operation
 * (its CTEs in front) and hands their column types to `check`.
 */
export interface SetOperation {
  /** Each branch as a statement of its own. */
  branches: string[];
  /** Throws Postgres' error when the branches' column types (DuckDB's names) do not match. */
  check(types: readonly (readonly string[])[]): void;
}

const setWords = ['UNION', 'INTERSECT', 'EXCEPT'];
const tailWords = new Set(['ORDER', 'LIMIT', 'OFFSET', 'FETCH']);

/** The set operation at the statement's outermost level, or undefined when it has none. */
export function setOperationOf(sql: string): SetOperation | undefined {
  if (!/\b(union|intersect|except)\b/i.test(sql)) return undefined;
  const level = new Level(parseTree(sql));
  const start = afterCtes(level);
  if (start === -1) return undefined;
  const prefix = start > 0 ? `${level.text(0, start - 1)} ` : '';
  const bounds: [number, number][] = [];
  let from = start;
  let k = start;
  for (; k < level.size && !tailWords.has(level.word(k) ?? '') && !level.punct(k, ';'); k += 1) {
    if (!level.is(k, ...setWords)) continue;
    bounds.push([from, k - 1]);
    from = level.is(k + 1, 'ALL', 'DISTINCT') ? k + 2 : k + 1;
  }
  if (bounds.length === 0) return undefined;
  bounds.push([from, k - 1]);
  const literals = bounds.map(([first, last]) => branchLiterals(level, first, last));
  const operation = level.word(bounds[0]![1] + 1)!;
  return {
    branches: bounds.map(([first, last]) => `${prefix}${level.text(first, last)}`),
    check: (types) => checkTypes(operation, types, literals),
  };
}

/** Where the statement's query starts: after `WITH [RECURSIVE] name [(columns)] AS [[NOT] MATERIALIZED] (…), …`; -1 when unclear. */
function afterCtes(level: Level): number {
  if (!level.is(0, 'WITH')) return 0;
  let k = level.is(1, 'RECURSIVE') ? 2 : 1;
  for (;;) {
    if (level.word(k) === null && !level.token(k, 'quoted-ident')) return -1;
    k += level.group(k + 1) ? 2 : 1;
    if (!level.is(k, 'AS')) return -1;
    k += 1;
    if (level.is(k, 'NOT')) k += 1;
    if (level.is(k, 'MATERIALIZED')) k += 1;
    if (!level.group(k)) return -1;
    if (!level.punct(k + 1, ',')) return k + 1;
    k += 2;
  }
}

/** Each select item's text when it is an untyped text literal, else null; null for a branch whose items it cannot see. */
function branchLiterals(level: Level, first: number, last: number): (string | null)[] | null {
  const group = first === last ? level.group(first) : null;
  const inner = group ? new Level(group.children) : level;
  const at = group ? 0 : first;
  if (!inner.is(at, 'SELECT')) return null;
  return selectItems(inner, at)
    .filter(({ to }) => group !== null || to <= last)
    .map(({ from, to }) => (inner.token(from, 'string') && (to === from || inner.is(from + 1, 'AS')) ? stringValue(inner.text(from, from)) : null));
}

/** Postgres' type categories, by DuckDB's type names. */
function category(type: string): string {
  if (type.endsWith('[]')) return 'array';
  const base = type.replace(/\(.*$/s, '');
  if (/^(U?TINYINT|U?SMALLINT|U?INTEGER|U?BIGINT|U?HUGEINT|DECIMAL|FLOAT|DOUBLE)$/.test(base)) return 'numeric';
  if (base === 'VARCHAR') return 'string';
  if (base === 'BOOLEAN') return 'boolean';
  if (/^(DATE|TIME|TIMESTAMP)/.test(base)) return 'datetime';
  if (base === 'INTERVAL') return 'timespan';
  return base.toLowerCase();
}

const postgresNames: Readonly<Record<string, string>> = {
  INTEGER: 'integer', BIGINT: 'bigint', SMALLINT: 'smallint', DOUBLE: 'double precision', FLOAT: 'real', DECIMAL: 'numeric', HUGEINT: 'numeric', VARCHAR: 'text',
  BOOLEAN: 'boolean', DATE: 'date', TIMESTAMP: 'timestamp without time zone', 'TIMESTAMP WITH TIME ZONE': 'timestamp with time zone', INTERVAL: 'interval', JSON: 'jsonb',
};
const postgresName = (type: string) => postgresNames[type.replace(/\(.*$/s, '')] ?? type.toLowerCase();

/** Whether Postgres can read an untyped literal as a value of the category. */
function readsAs(literal: string, kind: string): boolean {
  if (kind === 'numeric') return /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(literal);
  if (kind === 'boolean') return /^\s*(t|tr|tru|true|y|ye|yes|on|1|f|fa|fal|fals|false|n|no|of|off|0)\s*$/i.test(literal);
  return true;
}

function checkTypes(operation: string, types: readonly (readonly string[])[], literals: ((string | null)[] | null)[]): void {
  const width = Math.min(...types.map((columns) => columns.length));
  for (let column = 0; column < width; column += 1) {
    // An untyped literal takes the type of the others; a NULL has none.
    const typed = types.map((columns, branch) => ({ type: columns[column]!, literal: literals[branch]?.[column] ?? null })).filter(({ type }) => type !== '"NULL"');
    const resolved = typed.find(({ literal }) => literal === null);
    if (!resolved) continue;
    for (const other of typed) {
      if (other.literal !== null) {
        if (!readsAs(other.literal, category(resolved.type))) throw postgresError('22P02', `invalid input syntax for type ${postgresName(resolved.type)}: "${other.literal}"`);
      } else if (category(other.type) !== category(resolved.type)) {
        throw postgresError('42804', `${operation} types ${postgresName(resolved.type)} and ${postgresName(other.type)} cannot be matched`);
      }
    }
  }
}
