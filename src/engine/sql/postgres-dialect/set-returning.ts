import { clauseAt, fromItemEnders } from './clause';
import type { Call, CallRule, CallRules, Replacement } from './calls';
import { pathMatches } from './json-path-functions';
import { captureGroups } from './regex-pattern';
import type { Level } from './level';

/**
 * Set-returning functions. In a FROM list Postgres names the single column of a scalar function
 * after the alias (`FROM unnest(a) AS u` gives column `u`), while DuckDB makes the alias a struct of
 * the row; the alias gains a column list to match. In a SELECT list Postgres expands them into rows,
 * which DuckDB does for `unnest` only, so the others are unnested.
 */

interface SetFunction {
  /** The DuckDB table expression, or null when the call stays as written. */
  table(args: string[]): string | null;
  /** The DuckDB select-list expression, or null when the call stays as written. */
  select(args: string[]): string | null;
  /** The column Postgres gives a single-column function when no alias names it. */
  column: string;
  /** Functions returning records (jsonb_each, unnest of several arrays) keep their own column names. */
  record?: boolean | ((args: string[]) => boolean);
}

const elements = (args: string[], extract: string) => (args.length === 1 ? `unnest(${extract}(pgx_json_array(${args[0]}), '$[*]'))` : null);
const jsonElements: SetFunction = { table: (a) => elements(a, 'json_extract'), select: (a) => elements(a, 'json_extract'), column: 'value' };
const jsonTextElements: SetFunction = { table: (a) => elements(a, 'json_extract_string'), select: (a) => elements(a, 'json_extract_string'), column: 'value' };
/** The keys of an object; of an array or a scalar Postgres raises 22023. */
const objectKeys = (name: string): SetFunction => {
  // json keeps an object's keys as written, jsonb orders them (shorter first, then by their bytes).
  const keys = (object: string) => (name.startsWith('jsonb') ? `pgx_jsonb_key_order(json_keys(${object}))` : `json_keys(${object})`);
  return {
    table: (a) => (a.length === 1 ? `unnest(${keys(`pgx_json_object(${a[0]}, '${name}')`)})` : null),
    select: (a) => (a.length === 1 ? `unnest(${keys(`pgx_json_object(${a[0]}, '${name}')`)})` : null),
    column: name,
  };
};

/** The rows of regexp_matches(s, p, 'g') as unnest over a list of the matches' groups; null for a pattern or flags it cannot read. */
function regexpMatches(args: string[]): string | null {
  const pattern = args.length >= 2 && /^'[^']*'$/.test(args[1]!) ? args[1]!.slice(1, -1) : null;
  // Without g the call is DuckDB's boolean regexp_matches, which the ~ operators are written as.
  const flags = args.length === 3 ? (/^'([gic]*)'$/.exec(args[2]!)?.[1] ?? null) : null;
  if (pattern === null || flags === null || !flags.includes('g')) return null;
  const options = flags.replace('g', '') === '' ? '' : `, '${flags.replace('g', '')}'`;
  const groups = captureGroups(pattern);
  const all = (group: number) => `regexp_extract_all(${args[0]}, ${args[1]}, ${group}${options})`;
  const matches =
    groups === 0
      ? `list_transform(${all(0)}, lambda __m: [__m])`
      : `list_transform(list_zip(${Array.from({ length: groups }, (_, i) => all(i + 1)).join(', ')}), lambda __t: [${Array.from({ length: groups }, (_, i) => `__t[${i + 1}]`).join(', ')}])`;
  return `unnest(${matches})`;
}

const unnested = (list: string | null) => (list === null ? null : `unnest(${list})`);

/** One array argument that is visibly an array of arrays (`ARRAY[[1, 2], [3, 4]]`, `'{{1,2}}'::int[]` as translated). */
const nested = (args: string[]) => args.length === 1 && /^(ARRAY\s*\[\s*(\[|ARRAY\b)|\[\s*\[)/i.test(args[0]!);
const each = (value: string, order = ''): SetFunction => ({
  table: (a) => (a.length === 1 ? `(SELECT key, ${value} AS value FROM json_each(${a[0]})${order})` : null),
  select: () => null,
  column: 'value',
  record: true,
});

const jsonbOrder = ' ORDER BY strlen(key), key';

/** Bounds or a step that are visibly not integers: DuckDB's generate_series takes integers and timestamps only. */
const fractional = (args: string[]) => args.some((arg) => /^[+-]?[0-9]*\.[0-9]*$|::\s*(DECIMAL|numeric)\b/i.test(arg));
const numericSeries = (a: string[]) =>
  a.length >= 2 && a.length <= 3 && fractional(a) ? `unnest(pgx_numeric_series(${a[0]}, ${a[1]}, ${a[2] ?? '1'}))` : null;

/** A step written as untyped text (`'1 day'`) is an interval in Postgres, unless it is a number. */
const stepOf = (step: string) => (/^'[^']*'$/.test(step) && !/^'\s*[+-]?[0-9.]+\s*'$/.test(step) ? `CAST(${step} AS INTERVAL)` : step);
const intervalStep = (a: string[]) => (a.length === 3 && stepOf(a[2]!) !== a[2] ? `generate_series(${a[0]}, ${a[1]}, ${stepOf(a[2]!)})` : null);

/** The arguments with the step checked (a zero step raises 22023). */
const stepped = (a: string[]) => (a.length === 3 ? `${a[0]}, ${a[1]}, pgx_step(${stepOf(a[2]!)})` : a.join(', '));

/** The longest integer series written as a list: 100,000 integers are 400 KB, built when the statement is prepared. */
const maxListedSeries = 100_000;

/** How many values a series of integer literals holds (its step's sign taken as written; a zero step counts as none). */
function seriesLength(args: string[]): number {
  const [from, to, step = 1] = args.map(Number) as [number, number, number?];
  if (step === 0) return 0;
  return Math.max(0, Math.floor((to - from) / step) + 1);
}

/** Bounds and step that are integers (int4) as written: Postgres' series is then integer, DuckDB's bigint. */
const integers = (args: string[]) => args.every((arg) => /^-?[0-9]{1,9}$/.test(arg));

const setFunctions: Readonly<Record<string, SetFunction>> = {
  generate_series: {
    // A series of integers becomes the list it holds, cast to integer (Postgres' type); a long one stays
    // DuckDB's table function, which streams its rows (bigint) where the list would be built whole.
    table: (a) =>
      numericSeries(a) ??
      intervalStep(a) ??
      (integers(a) && seriesLength(a) <= maxListedSeries ? `unnest(CAST(generate_series(${stepped(a)}) AS INTEGER[]))` : null),
    select: (a) => {
      const series = numericSeries(a) ?? `unnest(generate_series(${stepped(a)}))`;
      // INT32: DuckDB's name for integer, which no Postgres cast rule reads again.
      return integers(a) ? `CAST(${series} AS INT32)` : series;
    },
    column: 'generate_series',
  },
  // regexp_matches(s, p, 'g') is a set of rows in Postgres, each a match's groups.
  regexp_matches: { table: (a) => regexpMatches(a), select: (a) => regexpMatches(a), column: 'regexp_matches' },
  // unnest(a, b, …) in FROM zips its arrays, the shorter ones padded with NULL, as DuckDB's unnests in one SELECT list do.
  // A multi-dimensional array unnests to its elements in Postgres; DuckDB's unnest takes the outer list apart.
  unnest: {
    table: (a) =>
      a.length > 1
        ? `(SELECT ${a.map((arg) => `unnest(${arg}) AS "unnest"`).join(', ')})`
        : nested(a)
          ? `(SELECT unnest(${a[0]}, recursive := true) AS "unnest")`
          : null,
    select: (a) => (nested(a) ? `unnest(${a[0]}, recursive := true)` : null),
    column: 'unnest',
    record: (a) => a.length > 1,
  },
  regexp_split_to_table: {
    table: (a) => (a.length === 2 ? `unnest(string_split_regex(${a.join(', ')}))` : null),
    select: () => null,
    column: 'regexp_split_to_table',
  },
  json_array_elements: jsonElements,
  jsonb_array_elements: jsonElements,
  json_array_elements_text: jsonTextElements,
  jsonb_array_elements_text: jsonTextElements,
  json_object_keys: objectKeys('json_object_keys'),
  jsonb_object_keys: objectKeys('jsonb_object_keys'),
  // A path's matches (see json-path-functions.ts); the arguments are the call's, rendered again here.
  jsonb_path_query: {
    table: (a) => unnested(pathMatches(a)),
    select: (a) => unnested(pathMatches(a)),
    column: 'jsonb_path_query',
  },
  // jsonb's members in its key order.
  jsonb_each: each('pgx_jsonb_sorted(value)', jsonbOrder),
  jsonb_each_text: each('pgx_jsonb_text(value)', jsonbOrder),
  json_each_text: each('pgx_jsonb_text(value)'),
};

interface FromAlias {
  ordinality: boolean;
  name: string | null;
  columns: string | null;
  /** Last position of the item. */
  end: number;
}

function aliasAfter(level: Level, groupAt: number): FromAlias {
  let k = groupAt + 1;
  const ordinality = level.is(k, 'WITH') && level.is(k + 1, 'ORDINALITY');
  if (ordinality) k += 2;
  const explicit = level.is(k, 'AS');
  const nameAt = explicit ? k + 1 : k;
  const word = level.word(nameAt);
  const isName = level.token(nameAt, 'quoted-ident') || (word !== null && !fromItemEnders.has(word));
  if (!isName) return { ordinality, name: null, columns: null, end: ordinality ? k - 1 : groupAt };
  const columns = level.group(nameAt + 1) ? level.text(nameAt + 1, nameAt + 1) : null;
  return { ordinality, name: level.text(nameAt, nameAt), columns, end: columns ? nameAt + 1 : nameAt };
}

function fromItem(fn: SetFunction, call: Call): Replacement | null {
  const alias = aliasAfter(call.level, call.at + 1);
  // A subquery takes no WITH ORDINALITY: the call stays as written then.
  const written = fn.table(call.args);
  const table = alias.ordinality && written?.startsWith('(SELECT') ? null : written;
  // A named scalar function without a column list is the one case DuckDB reads differently.
  const record = typeof fn.record === 'function' ? fn.record(call.args) : (fn.record ?? false);
  const needsColumns = !record && alias.name !== null && alias.columns === null;
  if (table === null && !needsColumns) return null;
  const source = table ?? call.level.text(call.at, call.at + 1);
  const ordinality = alias.ordinality ? ' WITH ORDINALITY' : '';
  const name = alias.name ?? (table === null ? null : call.name);
  let columns = alias.columns;
  if (columns === null && !record) {
    const first = alias.name ?? fn.column;
    columns = `(${first}${alias.ordinality ? ', ordinality' : ''})`;
  }
  const named = name === null ? '' : ` AS ${name}${columns ?? ''}`;
  return { sql: `${source}${ordinality}${named}`, through: alias.end };
}

function rule(fn: SetFunction): CallRule {
  return {
    label: 'set-returning functions: Postgres row and column shapes',
    rewrite(call) {
      if (call.inFrom) return fromItem(fn, call);
      return clauseAt(call.level, call.at) === 'SELECT' ? fn.select(call.args) : null;
    },
  };
}

export const setReturningRules: CallRules = Object.fromEntries(Object.entries(setFunctions).map(([name, fn]) => [name, rule(fn)]));
