import { FormatRegistry, Kind, TypeRegistry, Unsafe, type TUnsafe } from '@sinclair/typebox';

export interface TextOptions {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  description?: string;
  default?: string;
}

const kind = 'Text';
const patterns = new Map<string, RegExp>();

/**
 * A string field whose lengths count characters, as JSON Schema and the interface's document do, not
 * UTF-16 code units as JavaScript's `length` (and TypeBox's string checks) do: an emoji is one
 * character, not two. Patterns are read in Unicode mode for the same reason.
 */
export function text(options: TextOptions = {}): TUnsafe<string> {
  return Unsafe<string>({ ...options, type: 'string', [Kind]: kind });
}

/** What is wrong with a value for a text field, in FastAPI's words; undefined when nothing is. */
export function textProblem(options: TextOptions, value: unknown): { type: string; msg: string } | undefined {
  if (typeof value !== 'string') return { type: 'string_type', msg: 'Input should be a valid string' };
  if (options.minLength !== undefined && !atLeast(value, options.minLength)) {
    return { type: 'string_too_short', msg: `String should have at least ${options.minLength} characters` };
  }
  if (options.maxLength !== undefined && !atMost(value, options.maxLength)) {
    return { type: 'string_too_long', msg: `String should have at most ${options.maxLength} characters` };
  }
  if (options.pattern !== undefined && !patternOf(options.pattern).test(value)) {
    return { type: 'string_pattern_mismatch', msg: `String should match pattern '${options.pattern}'` };
  }
  const format = options.format === undefined ? undefined : FormatRegistry.Get(options.format);
  if (format && !format(value)) return { type: 'value_error', msg: `Input should be a valid ${options.format}` };
  return undefined;
}

export function isTextSchema(schema: object): boolean {
  return (schema as { [Kind]?: string })[Kind] === kind;
}

// A string has at least half as many characters as code units, and at most as many.
function atLeast(value: string, minimum: number): boolean {
  if (value.length < minimum) return false;
  return value.length >= 2 * minimum || characters(value) >= minimum;
}

function atMost(value: string, maximum: number): boolean {
  return value.length <= maximum || characters(value) <= maximum;
}

function characters(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

function patternOf(source: string): RegExp {
  let pattern = patterns.get(source);
  if (!pattern) {
    pattern = new RegExp(source, 'u');
    patterns.set(source, pattern);
  }
  return pattern;
}

if (!TypeRegistry.Has(kind)) TypeRegistry.Set<TextOptions>(kind, (schema, value) => textProblem(schema, value) === undefined);
