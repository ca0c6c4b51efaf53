import type { ValidationIssue } from '../errors/app-error';
import type { QueryParameters } from '../engine/sql/query-runner';

export const parameterTypes = ['string', 'integer', 'number', 'boolean', 'date', 'timestamp', 'enum'] as const;
export type ParameterType = (typeof parameterTypes)[number];
export type ParameterValue = string | number | boolean;

/** A saved query's parameter, as declared: `{{name}}` in its SQL takes a value of this type. */
export interface ParameterDefinition {
  name: string;
  type: ParameterType;
  default?: ParameterValue;
  /** Without a value and without a default, a required parameter is refused and an optional one is NULL. Default: true. */
  required?: boolean;
  /** The values an `enum` parameter takes. */
  options?: string[];
  description?: string;
}

/** The SQL type a parameter's marker is cast to: the statement holds a value of exactly this type. */
export const sqlTypeOf: Record<ParameterType, string> = {
  string: 'VARCHAR',
  integer: 'BIGINT',
  number: 'DOUBLE',
  boolean: 'BOOLEAN',
  date: 'DATE',
  timestamp: 'TIMESTAMPTZ',
  enum: 'VARCHAR',
};

/** The longest text a string parameter takes: a value, not a document. */
const maxTextLength = 10_000;
const minBigint = -(2n ** 63n);
const maxBigint = 2n ** 63n - 1n;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
/** ISO 8601: a date, a time to the minute, second or fraction, and an offset (none means UTC). */
const timestampPattern = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

type Bound = string | number | bigint | boolean | null;
type Checked = { ok: true; value: Bound } | { ok: false; msg: string; type: string };

/** Checks one value against its declaration; the bound form of what passes (integers as bigint, dates and times as ISO text). */
export function checkValue(definition: ParameterDefinition, value: unknown): Checked {
  switch (definition.type) {
    case 'string':
      if (typeof value !== 'string') return refused('Input should be a valid string', 'string_type');
      if ([...value].length > maxTextLength) return refused(`String should have at most ${maxTextLength} characters`, 'string_too_long');
      return { ok: true, value };
    case 'enum':
      if (typeof value !== 'string' || !(definition.options ?? []).includes(value)) {
        return refused(`Input should be ${(definition.options ?? []).map((option) => JSON.stringify(option)).join(', ')}`, 'enum');
      }
      return { ok: true, value };
    case 'integer':
      return integerOf(value);
    case 'number': {
      const number =
        typeof value === 'number' ? value : typeof value === 'string' && /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value) ? Number(value) : Number.NaN;
      // Bound as its shortest exact text, which the marker's CAST to DOUBLE reads back: the bindings take a
      // number without a fraction for a 64-bit integer, and 1e308 does not fit one.
      return Number.isFinite(number)
        ? { ok: true, value: Object.is(number, -0) ? '-0' : String(number) }
        : refused('Input should be a valid number', 'float_type');
    }
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : refused('Input should be a valid boolean', 'bool_type');
    case 'date':
      return typeof value === 'string' && isCalendarDate(value)
        ? { ok: true, value }
        : refused('Input should be a valid date in the format YYYY-MM-DD', 'date_from_datetime_parsing');
    case 'timestamp':
      return timestampOf(value);
    default:
      return definition.type satisfies never;
  }
}

function refused(msg: string, type: string): Checked {
  return { ok: false, msg, type };
}

function integerOf(value: unknown): Checked {
  let integer: bigint | undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) integer = BigInt(value);
  else if (typeof value === 'string' && /^-?\d{1,19}$/.test(value)) integer = BigInt(value);
  if (integer === undefined || integer < minBigint || integer > maxBigint) return refused('Input should be a valid integer (64 bits)', 'int_type');
  return { ok: true, value: integer };
}

function isCalendarDate(text: string): boolean {
  const match = datePattern.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function timestampOf(value: unknown): Checked {
  const match = typeof value === 'string' ? timestampPattern.exec(value) : null;
  const [hours, minutes, seconds] = match ? [Number(match[2]), Number(match[3]), Number(match[4] ?? 0)] : [];
  if (!match || !isCalendarDate(match[1]!) || hours! > 23 || minutes! > 59 || seconds! > 59) {
    return refused('Input should be a valid ISO 8601 timestamp, such as 2026-11-21T10:00:00Z', 'datetime_from_date_parsing');
  }
  // Without an offset the time is UTC, as pushed timestamps are.
  const text = match[5] ? (value as string) : `${value as string}Z`;
  return { ok: true, value: text };
}

/** Problems of a parameter list as declared (names, types, defaults, options), as 422 issues under `at`. */
export function definitionIssues(definitions: ParameterDefinition[], at: (string | number)[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  definitions.forEach((definition, index) => {
    const loc = [...at, index];
    if (seen.has(definition.name)) issues.push({ loc: [...loc, 'name'], msg: `The parameter "${definition.name}" is declared twice`, type: 'value_error' });
    seen.add(definition.name);
    if (definition.type === 'enum' && !(definition.options && definition.options.length > 0)) {
      issues.push({ loc: [...loc, 'options'], msg: 'An enum parameter lists its options', type: 'missing' });
    }
    if (definition.type !== 'enum' && definition.options !== undefined) {
      issues.push({ loc: [...loc, 'options'], msg: 'Only an enum parameter takes options', type: 'value_error' });
    }
    if (definition.default !== undefined) {
      const checked = checkValue(definition, definition.default);
      if (!checked.ok) issues.push({ loc: [...loc, 'default'], msg: checked.msg, type: checked.type });
    }
  });
  return issues;
}

/**
 * The values bound to a saved query's markers: each given value checked against its declaration, the
 * default where none is given, NULL for an optional parameter without either. Every problem is an
 * issue at `['body', 'parameters', <name>]`; values for names that are not declared are refused too.
 */
export function bindValues(
  definitions: ParameterDefinition[],
  given: Record<string, unknown>,
  at: (string | number)[] = ['body', 'parameters'],
): { values: QueryParameters; issues: ValidationIssue[] } {
  const values: Record<string, Bound> = {};
  const issues: ValidationIssue[] = [];
  const declared = new Set(definitions.map((definition) => definition.name));
  for (const name of Object.keys(given)) {
    if (!declared.has(name)) issues.push({ loc: [...at, name], msg: `The query has no parameter "${name}"`, type: 'extra_forbidden' });
  }
  for (const definition of definitions) {
    const supplied = Object.hasOwn(given, definition.name) && given[definition.name] !== null ? given[definition.name] : definition.default;
    if (supplied === undefined) {
      if (definition.required ?? true) issues.push({ loc: [...at, definition.name], msg: 'Field required', type: 'missing' });
      else values[definition.name] = null;
      continue;
    }
    const checked = checkValue(definition, supplied);
    if (checked.ok) values[definition.name] = checked.value;
    else issues.push({ loc: [...at, definition.name], msg: checked.msg, type: checked.type });
  }
  return { values: values as QueryParameters, issues };
}

/** Values given ahead of the others (a chart's own, a link's locked ones): each must fit its declaration; missing ones are not checked here. */
export function givenValueIssues(definitions: ParameterDefinition[], given: Record<string, unknown>, at: (string | number)[]): ValidationIssue[] {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(given)) {
    const definition = byName.get(name);
    if (!definition) {
      issues.push({
        loc: [...at, name],
        msg: definitions.length === 0 ? 'This chart takes no parameters' : `The query has no parameter "${name}"`,
        type: 'extra_forbidden',
      });
      continue;
    }
    if (value === null) continue;
    const checked = checkValue(definition, value);
    if (!checked.ok) issues.push({ loc: [...at, name], msg: checked.msg, type: checked.type });
  }
  return issues;
}
