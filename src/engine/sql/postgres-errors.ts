import { AppError } from '../../errors/app-error';
import type { ErrorCode } from '../../errors/catalogue';
import type { DuckDBErrorType } from '../duckdb/duckdb-error';

/**
 * Errors by Postgres' rules: each keeps the service's envelope and adds Postgres' SQLSTATE, with a
 * hint naming the rule. The engine's Postgres macros raise them as `error('[SQLSTATE] message')`;
 * DuckDB's own errors are read here too, by their type and words, for the SQLSTATE Postgres raises
 * for the same fault.
 */
const codes: Readonly<Record<string, ErrorCode>> = {
  '22': 'INVALID_VALUE',
  '42883': 'UNDEFINED_FUNCTION',
  '42725': 'UNDEFINED_FUNCTION',
  '42804': 'DATATYPE_MISMATCH',
  '42846': 'DATATYPE_MISMATCH',
  '42P01': 'UNDEFINED_TABLE',
  '42703': 'UNDEFINED_COLUMN',
  '42601': 'SYNTAX_ERROR',
};

const rules: Readonly<Record<string, string>> = {
  '22012': 'Postgres raises an error on division by zero, for integers, numeric and double precision alike; write NULLIF(divisor, 0) to get NULL instead.',
  '22P02':
    'Postgres reads text cast to a type only in that type’s input syntax (an integer has no fraction, a boolean is true/false/t/f/yes/no/on/off/1/0); cast through numeric to round, or fix the text.',
  '22003': 'The value is outside the range of its type; cast to a wider type (bigint, numeric) first.',
  '22023': 'Postgres refuses this argument value.',
  '22007':
    'Postgres reads dates, times and intervals in its own input formats (2024-01-15, Jan 15 2024, 1 day 2 hours, P1D); fix the text or use to_date/to_timestamp with a template.',
  '22008': 'The date or time is outside the calendar or the type’s range.',
  '22011': 'A substring’s length may not be negative.',
  '2201B': 'Postgres’ regular expressions must be well formed (balanced brackets and parentheses, valid escapes).',
  '2201E': 'The logarithm of zero or of a negative number is undefined.',
  '2201F': 'The power or root is undefined for these arguments (square root of a negative number, zero to a negative power).',
  '42883': 'Postgres has no function or operator of that name for these argument types; cast the arguments (max/min of a boolean are bool_or/bool_and).',
  '42725': 'Several functions or operators could take these arguments; cast the arguments to pick one.',
  '42804': 'Postgres matches these values by type and cannot match these types; cast one side.',
  '42846': 'Postgres has no cast between these types; cast through text or an intermediate type.',
  '42803': 'A column outside the aggregates must be in GROUP BY, and aggregates may not appear in WHERE or inside each other.',
  '42P10': 'ORDER BY and GROUP BY positions count the select list’s columns from 1.',
  '42702': 'Qualify the column with its table’s name or alias.',
  '42P20': 'Window functions may not appear in WHERE, GROUP BY or HAVING; compute them in a subquery and filter outside it.',
  '21000': 'A subquery used as a value must return at most one row; add a condition, an aggregate or LIMIT 1.',
  '22014': 'ntile takes a positive number of buckets.',
  '0A000': 'Postgres does not support this form; the message says which part.',
};

/** The error Postgres raises, in the service's envelope: the code by the SQLSTATE's class. */
export function postgresError(sqlstate: string, message: string): AppError {
  const code = codes[sqlstate] ?? codes[sqlstate.slice(0, 2)] ?? 'QUERY_ERROR';
  return new AppError(code, message, { sqlstate, hint: rules[sqlstate] });
}

/**
 * The service's own error for a DuckDB error, with the SQLSTATE Postgres gives the same fault; the
 * code becomes the SQLSTATE's where the catalogue has one (a value error, a function that does not
 * exist) and stays otherwise, and the hint is kept when it says more.
 */
export function withSqlstate(error: AppError, type: DuckDBErrorType, detail: string): AppError {
  const sqlstate = error.sqlstate ?? sqlstateOf(type, detail);
  if (sqlstate === undefined) return error;
  const code = error.code === 'QUERY_ERROR' ? (codes[sqlstate] ?? codes[sqlstate.slice(0, 2)] ?? error.code) : error.code;
  return new AppError(code, error.message, { sqlstate, hint: error.hint ?? rules[sqlstate], advice: error.advice, headers: error.headers, cause: error.cause });
}

/** DuckDB's error words (by error type) and the SQLSTATE Postgres raises for the same fault. */
const duckdbStates: readonly [DuckDBErrorType, RegExp, string][] = [
  // A function that is no ordered-set aggregate, given WITHIN GROUP.
  ['Parser', /^Unknown ordered aggregate/, '42883'],
  ['Parser', /./, '42601'],
  ['Catalog', /^Table with name|^Table .* does not exist|^Referenced table/, '42P01'],
  ['Catalog', /^(Scalar |Aggregate |Table |Pragma )?Function with name/, '42883'],
  ['Catalog', /^Type with name/, '42704'],
  ['Catalog', /^Schema with name/, '3F000'],
  ['Binder', /^Referenced table .* not found/, '42P01'],
  ['Binder', /Referenced column .* not found|does not have a column named|column .* (does not exist|not found)/i, '42703'],
  ['Binder', /No function matches the given name and argument types|^Unimplemented type for cast|has no function/, '42883'],
  ['Binder', /Could not choose a best candidate function/, '42725'],
  [
    'Binder',
    /must appear in the GROUP BY clause|cannot contain aggregates|aggregate function calls cannot be nested|overloads that match the supplied arguments/i,
    '42803',
  ],
  ['Binder', /(ORDER|GROUP) (BY )?term out of range/, '42P10'],
  ['Binder', /^Ambiguous reference/, '42702'],
  ['Binder', /^Cannot mix values of type/, '42804'],
  ['Binder', /^interval cannot be 0/, '22023'],
  ['Binder', /^WHERE clause cannot contain window functions/, '42P20'],
  ['Binder', /^Set operations can only apply to expressions with the same number of result columns/, '42601'],
  // An ORDER BY of a UNION, INTERSECT or EXCEPT may name its columns only.
  ['Binder', /^Could not ORDER BY column .*add the expression\/function to every SELECT/, '0A000'],
  ['Invalid Input', /^More than one row returned by a subquery used as an expression/, '21000'],
  ['Invalid Input', /^Argument for ntile must be greater than zero/, '22014'],
  ['Conversion', /^Unimplemented type for cast/, '42846'],
  ['Conversion', /^Type VARCHAR with value .* can't be cast to the destination type .*\[\]/, '22P02'],
  ['Not implemented', /^Unimplemented type for cast/, '42846'],
  ['Out of Range', /^Overflow in|out of range/i, '22003'],
  ['Out of Range', /factorial of a negative/, '22003'],
  ['Out of Range', /logarithm of/, '2201E'],
  ['Invalid Input', /logarithm of/, '2201E'],
  ['Invalid Input', /square root of a negative/, '2201F'],
  ['Out of Range', /square root of a negative/, '2201F'],
  // RE2's words for a pattern it cannot compile.
  [
    'Invalid Input',
    /^(missing [)\]]|missing argument to repetition operator|bad repetition operator|invalid (escape sequence|character class|character class range|named capture group|repetition size|UTF-8|nested repetition)|trailing \\|unexpected \)|no argument for repetition operator|bad (escape|named capture|character class|UTF-8))/,
    '2201B',
  ],
  ['Invalid Input', /^Could not parse string [\s\S]*out of range/, '22008'],
  ['Invalid Input', /^Could not parse string .* according to format specifier/, '22007'],
  ['Invalid Input', /^Malformed JSON/, '22P02'],
  ['Conversion', /^Malformed JSON/, '22P02'],
];

/** The SQLSTATE of an error of DuckDB's parser: 42601, a syntax error, unless its words say more. */
export function parserSqlstate(message: string): string {
  return sqlstateOf('Parser', message) ?? '42601';
}

function sqlstateOf(type: DuckDBErrorType, detail: string): string | undefined {
  return duckdbStates.find(([kind, pattern]) => kind === type && pattern.test(detail))?.[2];
}

/** `[22012] division by zero`, as the engine's macros raise it. */
const raised = /^\[([0-9A-Z]{5})\] ([^\n]*)/;

const typeNames: Readonly<Record<string, string>> = {
  INT8: 'smallint',
  INT16: 'smallint',
  INT32: 'integer',
  INT64: 'bigint',
  INT128: 'numeric',
  BOOL: 'boolean',
  DOUBLE: 'double precision',
  FLOAT: 'real',
  DATE: 'date',
  INTERVAL: 'interval',
  UUID: 'uuid',
  TIMESTAMP: 'timestamp',
  'TIMESTAMP WITH TIME ZONE': 'timestamp with time zone',
};
const postgresType = (duckdb: string) => typeNames[duckdb] ?? (/^DECIMAL/.test(duckdb) ? 'numeric' : duckdb.toLowerCase());

/** The Postgres error a DuckDB error stands for, in Postgres' words, or undefined. */
export function postgresErrorOf(type: DuckDBErrorType, detail: string): AppError | undefined {
  const marked = raised.exec(detail);
  if (marked) return postgresError(marked[1]!, marked[2]!);
  if (type !== 'Conversion' && type !== 'Out of Range') return undefined;
  // A check DuckDB evaluates while binding raises by casting '[SQLSTATE] message' to a number (error() is never evaluated then).
  const carried = /^Could not convert string '\[([0-9A-Z]{5})\] (.*)' to [A-Z0-9]+/s.exec(detail);
  if (carried) return postgresError(carried[1]!, carried[2]!);
  const text = /^Could not convert string (['"])(.*)\1 to ([A-Z][A-Z0-9]*(?: [A-Z][A-Z0-9]*)*(?:\(\d+,\d+\))?)/s.exec(detail);
  // Dates, times and intervals have their own class of bad input.
  if (text)
    return postgresError(
      /^(DATE|TIME|TIMESTAMP|INTERVAL)/.test(text[3]!) ? '22007' : '22P02',
      `invalid input syntax for type ${postgresType(text[3]!)}: "${text[2]}"`,
    );
  const field = /^invalid (date|timestamp|time|interval) field format: "(.*?)"/.exec(detail);
  if (field) return postgresError('22007', `invalid input syntax for type ${field[1]}: "${field[2]}"`);
  const interval = /^extract specifier "(.*?)" not recognized|^Error parsing interval/.exec(detail);
  if (interval) return postgresError('22007', `invalid input syntax for type interval${interval[1] ? `: "${interval[1]}"` : ''}`);
  const calendar = /^(?:date|time|timestamp) field value out of range: "(.*?)"|^(?:Date|Time) out of range: (.*)/.exec(detail);
  if (calendar) return postgresError('22008', `date/time field value out of range: "${calendar[1] ?? calendar[2]}"`);
  if (/^Malformed JSON/.test(detail)) return postgresError('22P02', 'invalid input syntax for type json');
  if (/^Could not cast value .* to DECIMAL/.test(detail)) return postgresError('22003', 'numeric field overflow');
  if (/out of range|^Overflow in/i.test(detail)) {
    const target = /destination type ([A-Z0-9]+)|^Overflow in \w+ of ([A-Z0-9]+)/.exec(detail);
    const name = target ? postgresType(target[1] ?? target[2]!) : undefined;
    return postgresError('22003', name ? `${name} out of range` : 'value out of range');
  }
  return undefined;
}
