import { AppError } from '../../errors/app-error';
import type { ErrorCode } from '../../errors/catalogue';

/**
 * Errors Postgres raises where DuckDB would answer, or raises with other words: each keeps the
 * service's envelope, adds Postgres' SQLSTATE, and a hint naming the Postgres rule. The engine's
 * Postgres macros raise them as `error('[SQLSTATE] message')`; DuckDB's own conversion errors are
 * read here too.
 */
const classCodes: Readonly<Record<string, ErrorCode>> = { '22': 'INVALID_VALUE', '42883': 'UNDEFINED_FUNCTION', '42804': 'DATATYPE_MISMATCH' };

const rules: Readonly<Record<string, string>> = {
  '22012': 'Postgres raises an error on division by zero, for integers, numeric and double precision alike; write NULLIF(divisor, 0) to get NULL instead.',
  '22P02': 'Postgres reads text cast to a type only in that type’s input syntax (an integer has no fraction, a boolean is true/false/t/f/yes/no/on/off/1/0); cast through numeric to round, or fix the text.',
  '22003': 'The value is outside the range of the type it is cast to; cast to a wider type (bigint, numeric).',
  '22023': 'Postgres refuses this argument value (generate_series’ step may not be zero).',
  '22008': 'The date or time is outside the calendar or the type’s range.',
  '42883': 'Postgres has no function or operator of that name for these argument types; cast the arguments (max/min of a boolean are bool_or/bool_and).',
  '42804': 'Postgres matches the columns of a UNION, INTERSECT or EXCEPT by type and cannot match these; cast one side.',
};

export function postgresError(sqlstate: string, message: string): AppError {
  const code = classCodes[sqlstate] ?? classCodes[sqlstate.slice(0, 2)] ?? 'QUERY_ERROR';
  return new AppError(code, message, { sqlstate, hint: rules[sqlstate] });
}

/** `[22012] division by zero`, as the engine's macros raise it. */
const raised = /^\[([0-9A-Z]{5})\] ([^\n]*)/;

const typeNames: Readonly<Record<string, string>> = {
  INT8: 'smallint', INT16: 'smallint', INT32: 'integer', INT64: 'bigint', INT128: 'numeric', BOOL: 'boolean', DOUBLE: 'double precision',
  FLOAT: 'real', DATE: 'date', INTERVAL: 'interval', UUID: 'uuid', TIMESTAMP: 'timestamp', 'TIMESTAMP WITH TIME ZONE': 'timestamp with time zone',
};

/** The Postgres error a DuckDB error stands for, or undefined. */
export function postgresErrorOf(type: string, detail: string): AppError | undefined {
  const marked = raised.exec(detail);
  if (marked) return postgresError(marked[1]!, marked[2]!);
  if (type !== 'Conversion' && type !== 'Out of Range') return undefined;
  const text = /^Could not convert string '(.*)' to ([A-Z0-9 ]+)$/s.exec(detail);
  if (text) return postgresError('22P02', `invalid input syntax for type ${typeNames[text[2]!] ?? text[2]!.toLowerCase()}: "${text[1]}"`);
  const field = /^invalid (?:date|timestamp) field format: "(.*?)"/.exec(detail);
  if (field) return postgresError('22007', `invalid input syntax for type ${/timestamp/.test(detail) ? 'timestamp' : 'date'}: "${field[1]}"`);
  if (/out of range/i.test(detail)) {
    const target = /destination type ([A-Z0-9]+)/.exec(detail);
    return postgresError('22003', target ? `${typeNames[target[1]!] ?? target[1]!.toLowerCase()} out of range` : 'value out of range');
  }
  return undefined;
}
