import { literalArgument, type CallRule, type CallRules } from './calls';
import { parseDatetimeFormat, strftimeTemplate, type FormatPiece } from './datetime-format';
import { sqlString, stringValue } from './literals';
import { numericFromText, numericToChar } from './numeric-format';
import { checkRewriteSize } from './pass';
import { postgresError } from '../postgres-errors';
import { isToken, meaningful, renderTrimmed, wordOf } from './token-tree';

/** Pieces as one SQL string expression: strftime over runs of codes and text, `||` between. */
function formatExpression(value: string, pieces: readonly FormatPiece[]): string {
  const parts: string[] = [];
  let run: FormatPiece[] = [];
  const flush = () => {
    if (run.length > 0) parts.push(`strftime(${value}, ${sqlString(strftimeTemplate(run)!)})`);
    run = [];
  };
  for (const piece of pieces) {
    if (piece.kind === 'expr') {
      flush();
      parts.push(piece.build(value));
    } else {
      run.push(piece);
    }
  }
  flush();
  if (parts.length === 0) return "''";
  return parts.length === 1 ? parts[0]! : `(${parts.join(' || ')})`;
}

const toChar: CallRule = {
  label: 'to_char → strftime / format',
  rewrite(call) {
    const template = literalArgument(call, 1);
    if (call.argNodes.length !== 2 || template === null) return null;
    const value = call.args[0]!;
    const numeric = numericToChar(value, template);
    if (numeric) return numeric;
    const pieces = parseDatetimeFormat(template);
    if (!pieces) return null;
    checkRewriteSize(pieces.filter((piece) => piece.kind === 'expr').length * value.length + template.length);
    return formatExpression(value, pieces);
  },
};

/** `to_timestamp(text, template)` and `to_date(text, template)` parse with strptime. */
function parseWithTemplate(resultType: string): CallRule {
  return {
    label: `${resultType === 'DATE' ? 'to_date' : 'to_timestamp'}(text, template) → strptime`,
    rewrite(call) {
      const template = literalArgument(call, 1);
      if (call.argNodes.length !== 2 || template === null) return null;
      const pieces = parseDatetimeFormat(template);
      const strptime = pieces && strftimeTemplate(pieces, true);
      return strptime ? `CAST(strptime(${call.args[0]}, ${sqlString(strptime)}) AS ${resultType})` : null;
    },
  };
}

/**
 * DuckDB's second and millisecond fields are whole numbers; Postgres' carry the fraction
 * (`extract(second from '…09.5')` is 9.5). Both keep microseconds whole, so those are scaled.
 */
const fractionalFields: Readonly<Record<string, number>> = { SECOND: 1e6, SECONDS: 1e6, MILLISECOND: 1e3, MILLISECONDS: 1e3, MS: 1e3 };

function fractionalField(field: string | null): number | null {
  return field === null ? null : (fractionalFields[field.toUpperCase()] ?? null);
}

/**
 * The units Postgres reads (its unit table; a unit is read by its first ten letters), and those of a
 * time of day, which it refuses to extract from a date. A unit DuckDB does not know either raises
 * DuckDB's own error, whose words say the same as an interval's.
 */
const timeOfDay = new Set([
  'h',
  'hour',
  'hours',
  'hr',
  'hrs',
  'microsecon',
  'millisecon',
  'min',
  'mins',
  'minute',
  'minutes',
  'ms',
  'msec',
  'msecond',
  'mseconds',
  'msecs',
  's',
  'sec',
  'second',
  'seconds',
  'secs',
  'timezone',
  'timezone_h',
  'timezone_m',
  'us',
  'usec',
  'usecond',
  'useconds',
  'usecs',
]);
const units = new Set([
  ...timeOfDay,
  'c',
  'cent',
  'centuries',
  'century',
  'd',
  'day',
  'days',
  'dec',
  'decade',
  'decades',
  'decs',
  'mil',
  'millennia',
  'millennium',
  'mils',
  'mon',
  'mons',
  'month',
  'months',
  'qtr',
  'quarter',
  'w',
  'week',
  'weeks',
  'y',
  'year',
  'years',
  'yr',
  'yrs',
  'dow',
  'doy',
  'epoch',
  'isodow',
  'isoyear',
  'julian',
]);

/** A unit as Postgres reads it, raising 22023 for one it does not know. */
function checkedUnit(unit: string): string {
  const key = unit.toLowerCase().slice(0, 10);
  if (!units.has(key)) throw postgresError('22023', `unit "${unit.toLowerCase()}" not recognized`);
  return key;
}

/** extract(field FROM x): a time field of a date is refused (0A000), second and millisecond keep the fraction. */
const extract: CallRule = {
  label: 'extract: Postgres units, second | millisecond keep the fraction',
  rewrite(call) {
    const nodes = meaningful(call.argNodes[0] ?? []);
    if (call.argNodes.length !== 1 || !isToken(nodes[1], 'word') || wordOf(nodes[1]) !== 'FROM') return null;
    const first = nodes[0];
    const field = first?.type === 'token' ? (first.token.kind === 'string' ? stringValue(first.token.text) : wordOf(first)) : null;
    if (field === null) return null;
    const unit = checkedUnit(field);
    const scale = fractionalField(field);
    // Most fields (year, month, epoch…) need nothing more: the source is rendered only for the others.
    if (!timeOfDay.has(unit) && scale === null) return null;
    const argument = call.argNodes[0]!;
    const written = renderTrimmed(argument.slice(argument.indexOf(nodes[1]!) + 1));
    const source = timeOfDay.has(unit) && !/^pgx_time_field_of\(/i.test(written) ? `pgx_time_field_of(${written}, '${field.toLowerCase()}')` : written;
    if (scale !== null) return `(extract(microseconds FROM ${source}) / ${scale === 1e6 ? '1e6' : '1e3'})`;
    return source === written ? null : `extract(${field} FROM ${source})`;
  },
};

const datePart: CallRule = {
  label: "date_part: Postgres units, 'second' | 'millisecond' keep the fraction",
  rewrite(call) {
    const unit = literalArgument(call, 0);
    if (call.argNodes.length !== 2 || unit === null) return null;
    checkedUnit(unit);
    const scale = fractionalField(unit);
    return scale === null ? null : `(date_part('microseconds', ${call.args[1]}) / ${scale === 1e6 ? '1e6' : '1e3'})`;
  },
};

const intervalParts = ['years', 'months', 'weeks', 'days', 'hours', 'mins', 'secs'] as const;
const intervalBuilders: Readonly<Record<(typeof intervalParts)[number], (value: string) => string>> = {
  years: (v) => `to_years(CAST(${v} AS INTEGER))`,
  months: (v) => `to_months(CAST(${v} AS INTEGER))`,
  weeks: (v) => `to_days(7 * CAST(${v} AS INTEGER))`,
  days: (v) => `to_days(CAST(${v} AS INTEGER))`,
  hours: (v) => `to_hours(CAST(${v} AS BIGINT))`,
  mins: (v) => `to_minutes(CAST(${v} AS BIGINT))`,
  secs: (v) => `to_seconds(CAST(${v} AS DOUBLE))`,
};

/** `make_interval(years, months, weeks, days, hours, mins, secs)`, by position or as `days => 3`. */
const makeInterval: CallRule = {
  label: 'make_interval → sum of to_* intervals',
  rewrite(call) {
    const parts: string[] = [];
    for (const [index, arg] of call.args.entries()) {
      const named = /^([a-z]+)\s*=>\s*([\s\S]+)$/i.exec(arg);
      const name = named ? named[1]!.toLowerCase() : intervalParts[index];
      const build = name === undefined ? undefined : intervalBuilders[name as (typeof intervalParts)[number]];
      if (!build) return null;
      parts.push(build(named ? named[2]! : arg));
    }
    return parts.length === 0 ? 'to_seconds(0)' : `(${parts.join(' + ')})`;
  },
};

export const dateFunctionRules: CallRules = {
  to_number: {
    label: 'to_number → the digits as numeric',
    rewrite(call) {
      const template = literalArgument(call, 1);
      return call.argNodes.length === 2 && template !== null ? numericFromText(call.args[0]!, template) : null;
    },
  },
  make_interval: makeInterval,
  to_char: toChar,
  to_timestamp: parseWithTemplate('TIMESTAMPTZ'),
  to_date: parseWithTemplate('DATE'),
  extract,
  date_part: datePart,
  date_bin: { label: 'date_bin → time_bucket', rewrite: (call) => (call.argNodes.length === 3 ? `time_bucket(${call.args.join(', ')})` : null) },
  clock_timestamp: { label: 'clock_timestamp / statement_timestamp → now()', rewrite: (call) => (call.argNodes.length === 0 ? 'now()' : null) },
  statement_timestamp: { label: 'clock_timestamp / statement_timestamp → now()', rewrite: (call) => (call.argNodes.length === 0 ? 'now()' : null) },
};
