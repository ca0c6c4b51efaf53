import { literalArgument, type CallRule, type CallRules } from './calls';
import { parseDatetimeFormat, strftimeTemplate, type FormatPiece } from './datetime-format';
import { sqlString, stringValue } from './literals';
import { numericToChar } from './numeric-format';
import { checkRewriteSize } from './pass';
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
      const strptime = pieces && strftimeTemplate(pieces);
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

const extract: CallRule = {
  label: 'extract(second | millisecond …) keeps the fraction',
  rewrite(call) {
    const nodes = meaningful(call.argNodes[0] ?? []);
    if (call.argNodes.length !== 1 || !isToken(nodes[1], 'word') || wordOf(nodes[1]) !== 'FROM') return null;
    const first = nodes[0];
    const field = first?.type === 'token' ? (first.token.kind === 'string' ? stringValue(first.token.text) : wordOf(first)) : null;
    const scale = fractionalField(field);
    if (scale === null) return null;
    const argument = call.argNodes[0]!;
    const source = renderTrimmed(argument.slice(argument.indexOf(nodes[1]!) + 1));
    return `(extract(microseconds FROM ${source}) / ${scale === 1e6 ? '1e6' : '1e3'})`;
  },
};

const datePart: CallRule = {
  label: "date_part('second' | 'millisecond', …) keeps the fraction",
  rewrite(call) {
    const scale = fractionalField(literalArgument(call, 0));
    if (call.argNodes.length !== 2 || scale === null) return null;
    return `(date_part('microseconds', ${call.args[1]}) / ${scale === 1e6 ? '1e6' : '1e3'})`;
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
