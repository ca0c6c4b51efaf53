import { literalArgument, type Call, type CallRule, type CallRules, type Replacement } from './calls';
import { postgresError } from '../postgres-errors';
import { macroArgument } from './operands';

/** `DISTINCT x` / `ALL x` as the quantifier and the operand. */
function quantified(arg: string): [string, string] {
  const match = /^(distinct|all)\s+([\s\S]*)$/i.exec(arg);
  return match ? [`${match[1]} `, match[2]!] : ['', arg];
}

/**
 * An aggregate's argument that is itself an aggregate (`sum(sum(x)) OVER ()`, a share of a total):
 * its type is not known when a macro's overload is chosen, and it is a sum or a count already.
 */
const aggregated =
  /\b(sum|count|avg|pgx_avg\w*|pgx_sum\w*|min|max|stddev\w*|var_\w+|variance|string_agg|array_agg|bool_and|bool_or|every|percentile_\w+|mode)\s*\(/i;

/** An aggregate of one argument whose argument goes through a macro (see macros.ts). */
function aggregateArgument(macro: (operand: string, name: string) => string, label: string, typedOverloads = false) {
  return {
    label,
    rewrite: (call: Call) => {
      if (call.argNodes.length !== 1) return null;
      const [quantifier, operand] = quantified(call.args[0]!);
      if (/\border\s+by\b/i.test(operand) || (typedOverloads && aggregated.test(operand))) return null;
      untypedText(call, operand);
      return `${call.name}(${quantifier}${macro(operand, call.name)})`;
    },
  };
}

/** `sum('a')`: an untyped text literal fits several of Postgres' sums (and averages), so it picks none. */
function untypedText(call: Call, operand: string): void {
  if (/^'(?:[^']|'')*'$/.test(operand) && (call.name === 'sum' || call.name === 'avg'))
    throw postgresError('42725', `function ${call.name}(unknown) is not unique`);
}

/** Aggregates and numeric functions whose result type or rounding differs from Postgres'. */
export const arithmeticFunctionRules: CallRules = {
  sum: { label: 'sum of integers: numeric as in Postgres', rewrite: total },
  max: aggregateArgument((operand, name) => `pgx_ordered(${operand}, '${name}')`, 'max/min: no boolean, as in Postgres'),
  min: aggregateArgument((operand, name) => `pgx_ordered(${operand}, '${name}')`, 'max/min: no boolean, as in Postgres'),
  round: {
    label: 'round(double precision): halves to even, no round(double precision, n)',
    rewrite: (call) => (call.argNodes.length === 1 ? `pgx_round(${call.args[0]})` : call.argNodes.length === 2 ? toPlaces('round', call) : null),
  },
  trunc: { label: 'no trunc(double precision, n)', rewrite: (call) => (call.argNodes.length === 2 ? toPlaces('trunc', call) : null) },
  avg: { label: 'avg of integers: numeric as in Postgres', rewrite: average },
  power: macro('pgx_power', 2, 'power and exp raise where Postgres does'),
  pow: macro('pgx_power', 2, 'power and exp raise where Postgres does'),
  exp: macro('pgx_exp', 1, 'power and exp raise where Postgres does'),
  scale: macro('pgx_scale', 1, 'scale / min_scale of a numeric'),
  min_scale: macro('pgx_min_scale', 1, 'scale / min_scale of a numeric'),
  // A DuckDB decimal keeps its scale in its type; the value, which is all a client reads, is the same.
  trim_scale: { label: 'trim_scale: the value itself', rewrite: (call) => (call.argNodes.length === 1 ? `(${call.args[0]})` : null) },
  justify_hours: macro('pgx_justify_hours', 1, 'justify_hours / justify_days / justify_interval'),
  justify_days: macro('pgx_justify_days', 1, 'justify_hours / justify_days / justify_interval'),
  justify_interval: macro('pgx_justify_interval', 1, 'justify_hours / justify_days / justify_interval'),
  pg_typeof: { label: 'pg_typeof: Postgres type names', rewrite: (call) => (call.argNodes.length === 1 ? `pgx_typeof(${call.args[0]})` : null) },
  // Postgres counts a start before the first character: substr('hello', -1, 3) is 'h'.
  substr: { label: 'substr from a start before 1', rewrite: fromStart },
  mod: { label: 'mod: division by zero raised', rewrite: (call) => (call.argNodes.length === 2 ? `mod(${call.args[0]}, pgx_divisor(${call.args[1]}))` : null) },
  date_trunc: { label: 'date_trunc(date): timestamptz', rewrite: dateTrunc },
};

/**
 * `date_trunc(unit, x)`: a date is read as a timestamptz; centuries and millennia begin with their
 * year 1 (2001, not 2000); a unit Postgres does not know raises 22023.
 */
function dateTrunc(call: Call): string | null {
  if (call.argNodes.length !== 2) return null;
  const unit = literalArgument(call, 0)?.toLowerCase();
  if (unit !== undefined && !truncationUnits.has(unit)) throw postgresError('22023', `unit "${unit}" not recognized`);
  const years =
    unit === undefined ? undefined : { century: 100, centuries: 100, c: 100, cent: 100, millennium: 1000, millennia: 1000, mil: 1000, mils: 1000 }[unit];
  return years === undefined ? `pgx_date_trunc(${call.args.join(', ')})` : `pgx_date_trunc_from_one(${call.args[1]}, ${years})`;
}

/** The units date_trunc takes, in Postgres' spellings (it reads a unit by its first ten letters). */
const truncationUnits = new Set([
  'microseconds',
  'microsecond',
  'milliseconds',
  'millisecond',
  'second',
  'seconds',
  'minute',
  'minutes',
  'hour',
  'hours',
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'quarter',
  'year',
  'years',
  'decade',
  'decades',
  'century',
  'centuries',
  'millennium',
  'millennia',
  'us',
  'usec',
  'usecs',
  'ms',
  'msec',
  'msecs',
  's',
  'sec',
  'secs',
  'm',
  'min',
  'mins',
  'h',
  'hr',
  'hrs',
  'd',
  'w',
  'mon',
  'mons',
  'qtr',
  'y',
  'yr',
  'yrs',
  'dec',
  'decs',
  'c',
  'cent',
  'mil',
  'mils',
]);

function fromStart(call: Call): string | null {
  if (call.argNodes.length < 2 || call.argNodes.length > 3 || call.args.some((arg) => /^(from|for|similar)\b|\s(from|for|similar)\s/i.test(arg))) return null;
  const [text, start, length] = call.args as [string, string, string | undefined];
  return substringFrom(text, start, length);
}

/** Characters `start` to `start + length - 1` of `text`, counting a start before the first character as Postgres does. */
export function substringFrom(text: string, start: string, length: string | undefined): string {
  if (length === undefined) return `substr(${text}, greatest(${start}, 1))`;
  return `substr(${text}, greatest(${start}, 1), greatest((${start}) + pgx_substr_length(${length}) - greatest(${start}, 1), 0))`;
}

/**
 * `round(x, n)` and `trunc(x, n)` refuse a double as Postgres does, unless x holds a division:
 * DuckDB divides decimals into a double where Postgres keeps a numeric (`round(100.0 * a / b, 2)`).
 */
function toPlaces(name: 'round' | 'trunc', call: Call): string | null {
  if (call.args[0]!.replace(/\/\*[\s\S]*?\*\//g, '').includes('/')) return null;
  return `pgx_${name}_to(${call.args.join(', ')})`;
}

/** A call of a macro of the same arguments. */
function macro(name: string, count: number, label: string): CallRule {
  return { label, rewrite: (call) => (call.argNodes.length === count ? `${name}(${call.args.map(macroArgument).join(', ')})` : null) };
}

const sumOfArgument = aggregateArgument((operand) => `pgx_sum_arg(${operand})`, 'sum of integers: numeric as in Postgres', true);

/**
 * `sum([DISTINCT] x) [FILTER (WHERE c)]` by its macro, which sums integers as numeric and intervals
 * part by part (DuckDB has no sum of intervals); over a window, or of an aggregate, the argument
 * alone goes through a macro and the sum stays DuckDB's.
 */
function total(call: Call): string | Replacement | null {
  const replacement = aggregateCall(call, 'pgx_sum');
  return replacement === undefined ? sumOfArgument.rewrite(call) : replacement;
}

/**
 * `avg([DISTINCT] x) [FILTER (WHERE c)]` by its macro (see function-macros.ts), the filter as a CASE
 * inside; over a window it stays DuckDB's avg, a double.
 */
function average(call: Call): Replacement | null {
  return aggregateCall(call, 'pgx_avg') ?? null;
}

/**
 * `name([DISTINCT] x) [FILTER (WHERE c)]` as the macro `name` (or `name_distinct`) of `x`, the filter
 * a CASE inside; undefined where the call stays an aggregate call (over a window, of an aggregate,
 * with ORDER BY), null where it is left alone.
 */
function aggregateCall(call: Call, macro: string): Replacement | null | undefined {
  if (call.argNodes.length !== 1) return null;
  const [quantifier, operand] = quantified(call.args[0]!);
  if (/\border\s+by\b/i.test(operand) || quantifier.trim().toUpperCase() === 'ALL' || aggregated.test(operand)) return undefined;
  untypedText(call, operand);
  const level = call.level;
  const filtered = level.is(call.at + 2, 'FILTER') && level.group(call.at + 3);
  const end = filtered ? call.at + 3 : call.at + 1;
  if (level.is(end + 1, 'OVER')) return undefined;
  const condition = filtered ? /^\s*where\s+([\s\S]*)$/i.exec(level.text(end, end).slice(1, -1)) : null;
  if (filtered && !condition) return undefined;
  const value = condition ? `CASE WHEN ${condition[1]} THEN ${operand} END` : operand;
  return { sql: `${macro}${quantifier ? '_distinct' : ''}(${value})`, through: end };
}
