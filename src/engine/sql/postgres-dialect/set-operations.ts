import { postgresError } from '../postgres-errors';
import { selectItems } from './figure-name';
import { Level } from './level';
import { stringValue } from './literals';
import { parseTree, type SqlNode } from './token-tree';

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
  /** Throws Postgres' error when the branches' column types (DuckDB's names; null when unknown) do not match. */
  check(types: readonly (readonly string[] | null)[]): void;
}

const setWords = ['UNION', 'INTERSECT', 'EXCEPT'];
const tailWords = new Set(['ORDER', 'LIMIT', 'OFFSET', 'FETCH']);

/**
 * The statement's set operations, at every level (subqueries and CTE bodies too), each branch
 * prefixed with the statement's own CTEs so that it stands alone; undefined when it has none.
 */
export function setOperationOf(sql: string): SetOperation | undefined {
  if (!/\b(union|intersect|except)\b/i.test(sql)) return undefined;
  const operations = operationsOf(sql);
  if (operations.length === 0) return undefined;
  return {
    branches: operations.flatMap((operation) => operation.branches),
    check(types) {
      let next = 0;
      for (const operation of operations) {
        const known = types.slice(next, next + operation.branches.length);
        next += operation.branches.length;
        if (!known.every((columns): columns is readonly string[] => columns !== null)) continue;
        checkTypes(operation.word, known, operation.items);
        if (operation.recursive !== undefined) checkRecursiveTypes(operation.recursive, known, operation.items);
      }
    },
  };
}

/** The set operations of a statement, at every level. */
export function operationsOf(sql: string): Operation[] {
  const root = new Level(parseTree(sql));
  const start = afterCtes(root);
  const prefix = start > 0 ? `${root.text(0, start - 1)} ` : '';
  const operations: Operation[] = [];
  const recursive = recursiveBodies(root);
  const pending: Level[] = [root];
  for (let level = pending.pop(); level; level = pending.pop()) {
    const operation = operationAt(level, level === root ? Math.max(start, 0) : 0, prefix);
    if (operation) operations.push({ ...operation, recursive: recursive.get(level) });
    for (let k = 0; k < level.size; k += 1) {
      const group = level.group(k);
      if (!group) continue;
      const inner = new Level(group.children);
      if (level === root && recursive.has(k)) recursive.set(inner, recursive.get(k)!);
      pending.push(inner);
    }
  }
  return operations;
}

interface Operation {
  word: string;
  /** Whether a set word of it drops repeated rows (no ALL), which compares rows. */
  distinct: boolean;
  branches: string[];
  items: (BranchItem[] | null)[];
  /** Each branch's select items as written; null where it cannot see them. */
  texts: (string[] | null)[];
  /** The name of the recursive CTE whose body this is. */
  recursive?: string | undefined;
}

/**
 * The bodies of the statement's recursive CTEs (those that name themselves), by the position of
 * their group at the top level; the map later holds their levels too.
 */
function recursiveBodies(root: Level): Map<number | Level, string> {
  const bodies = new Map<number | Level, string>();
  if (!root.is(0, 'WITH') || !root.is(1, 'RECURSIVE')) return bodies;
  for (let k = 2; k + 2 < root.size; k += 1) {
    const name = root.word(k)?.toLowerCase() ?? (root.token(k, 'quoted-ident') ? root.text(k, k).slice(1, -1) : null);
    if (name === null || !(root.punct(k - 1, ',') || k === 2)) continue;
    const body = root.group(k + 1) && root.is(k + 2, 'AS') ? k + 3 : root.is(k + 1, 'AS') ? k + 2 : -1;
    const at = root.is(body, 'NOT') ? body + 2 : root.is(body, 'MATERIALIZED') ? body + 1 : body;
    const group = root.group(at);
    if (group && namesItself(group.children, name)) bodies.set(at, name);
  }
  return bodies;
}

function namesItself(nodes: readonly SqlNode[], name: string): boolean {
  return nodes.some((node) =>
    node.type === 'group' ? namesItself(node.children, name) : node.token.kind === 'word' && node.token.text.toLowerCase() === name,
  );
}

/** The set operation at the top of a level, from position `start` (after the CTEs). */
function operationAt(level: Level, start: number, prefix: string): Operation | null {
  if (!level.is(start, 'SELECT', 'VALUES', 'TABLE') && !level.group(start)) return null;
  const bounds: [number, number][] = [];
  let from = start;
  let k = start;
  for (; k < level.size && !tailWords.has(level.word(k) ?? '') && !level.punct(k, ';'); k += 1) {
    if (!level.is(k, ...setWords)) continue;
    bounds.push([from, k - 1]);
    from = level.is(k + 1, 'ALL', 'DISTINCT') ? k + 2 : k + 1;
  }
  if (bounds.length === 0) return null;
  bounds.push([from, k - 1]);
  return {
    word: level.word(bounds[0]![1] + 1)!,
    distinct: bounds.slice(0, -1).some(([, last]) => !level.is(last + 2, 'ALL')),
    branches: bounds.map(([first, last]) => `${prefix}${level.text(first, last)}`),
    items: bounds.map(([first, last]) => branchItems(level, first, last)),
    texts: bounds.map(([first, last]) => branchTexts(level, first, last)),
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

/** A branch's select items, each read by `read` at the level that holds it; null for a branch whose items it cannot see. */
function branchSelect<T>(level: Level, first: number, last: number, read: (inner: Level, from: number, to: number) => T): T[] | null {
  const group = first === last ? level.group(first) : null;
  const inner = group ? new Level(group.children) : level;
  const at = group ? 0 : first;
  if (!inner.is(at, 'SELECT')) return null;
  return selectItems(inner, at)
    .filter(({ to }) => group !== null || to <= last)
    .map(({ from, to }) => read(inner, from, to));
}

/** A branch's select items as written. */
const branchTexts = (level: Level, first: number, last: number) => branchSelect(level, first, last, (inner, from, to) => inner.text(from, to).trim());

/** A select item as the type check sees it: an untyped text literal, a NULL, or anything else. */
type BranchItem = { literal: string } | 'null' | 'typed';

/** A branch's select items as the type check sees them. */
const branchItems = (level: Level, first: number, last: number) =>
  branchSelect(level, first, last, (inner, from, to): BranchItem => {
    const alone = to === from || inner.is(from + 1, 'AS');
    if (alone && inner.is(from, 'NULL')) return 'null';
    const value = alone && inner.token(from, 'string') ? stringValue(inner.text(from, from)) : null;
    return value === null ? 'typed' : { literal: value };
  });

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
  INTEGER: 'integer',
  BIGINT: 'bigint',
  SMALLINT: 'smallint',
  DOUBLE: 'double precision',
  FLOAT: 'real',
  DECIMAL: 'numeric',
  HUGEINT: 'numeric',
  VARCHAR: 'text',
  BOOLEAN: 'boolean',
  DATE: 'date',
  TIMESTAMP: 'timestamp without time zone',
  'TIMESTAMP WITH TIME ZONE': 'timestamp with time zone',
  INTERVAL: 'interval',
  JSON: 'jsonb',
};
const postgresName = (type: string) => postgresNames[type.replace(/\(.*$/s, '')] ?? type.toLowerCase();

/** Whether Postgres can read an untyped literal as a value of the category. */
function readsAs(literal: string, kind: string): boolean {
  if (kind === 'numeric') return /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(literal);
  if (kind === 'boolean') return /^\s*(t|tr|tru|true|y|ye|yes|on|1|f|fa|fal|fals|false|n|no|of|off|0)\s*$/i.test(literal);
  return true;
}

function checkTypes(operation: string, types: readonly (readonly string[])[], items: readonly (BranchItem[] | null)[]): void {
  const width = Math.min(...types.map((columns) => columns.length));
  for (let column = 0; column < width; column += 1) {
    // An untyped literal takes the type of the others; a NULL has none.
    const all = types.map((columns, branch) => ({ type: columns[column]!, item: items[branch]?.[column] ?? 'typed' }));
    const resolved = all.find(({ item }) => item === 'typed');
    if (!resolved) continue;
    for (const other of all) {
      if (other.item === 'null') continue;
      if (other.item !== 'typed') {
        if (!readsAs(other.item.literal, category(resolved.type)))
          throw postgresError('22P02', `invalid input syntax for type ${postgresName(resolved.type)}: "${other.item.literal}"`);
      } else if (category(other.type) !== category(resolved.type)) {
        throw postgresError('42804', `${operation} types ${postgresName(resolved.type)} and ${postgresName(other.type)} cannot be matched`);
      }
    }
  }
}

/** Numeric types from narrowest to widest: the type a recursive CTE's terms resolve to is the widest. */
const numericRank = ['smallint', 'integer', 'bigint', 'numeric', 'real', 'double precision'];

/**
 * A recursive CTE's column keeps the type of its non-recursive term: Postgres refuses a recursive
 * term that widens it (`SELECT 1 UNION ALL SELECT n + 0.5`, a date plus an interval: 42804), where
 * DuckDB would cast the rows back to the narrower type.
 */
function checkRecursiveTypes(name: string, types: readonly (readonly string[])[], items: readonly (BranchItem[] | null)[]): void {
  const width = Math.min(...types.map((columns) => columns.length));
  for (let column = 0; column < width; column += 1) {
    const first = items[0]?.[column];
    if (first === 'null') continue;
    const initial = first !== undefined && first !== 'typed' ? 'text' : postgresName(types[0]![column]!);
    let overall = initial;
    for (const [branch, columns] of types.entries()) {
      const item = items[branch]?.[column];
      if (branch === 0 || item === 'null' || (item !== undefined && item !== 'typed')) continue;
      const type = postgresName(columns[column]!);
      if (numericRank.includes(type) && numericRank.includes(overall)) overall = numericRank.indexOf(type) > numericRank.indexOf(overall) ? type : overall;
      else if (type === 'timestamp with time zone' || (type === 'timestamp without time zone' && overall === 'date')) overall = type;
    }
    if (overall !== initial)
      throw postgresError('42804', `recursive query "${name}" column ${column + 1} has type ${initial} in non-recursive term but type ${overall} overall`);
  }
}
