import type { ValidationError } from 'elysia';
import { ValueErrorType } from '@sinclair/typebox/errors';
import type { ValidationIssue } from '../../errors/app-error';
import { isTextSchema, textProblem, type TextOptions } from '../text';

// Elysia names request parts after its handler arguments; FastAPI-style bodies name them after HTTP.
const locationOf: Record<string, string> = { body: 'body', query: 'query', params: 'path', headers: 'header', cookie: 'cookie' };

const typeOf: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.ObjectRequiredProperty]: 'missing',
  [ValueErrorType.ObjectAdditionalProperties]: 'extra_forbidden',
  [ValueErrorType.String]: 'string_type',
  [ValueErrorType.StringMinLength]: 'string_too_short',
  [ValueErrorType.StringMaxLength]: 'string_too_long',
  [ValueErrorType.StringPattern]: 'string_pattern_mismatch',
  [ValueErrorType.StringFormat]: 'value_error',
  [ValueErrorType.Integer]: 'int_type',
  [ValueErrorType.IntegerMinimum]: 'greater_than_equal',
  [ValueErrorType.IntegerMaximum]: 'less_than_equal',
  [ValueErrorType.Number]: 'float_type',
  [ValueErrorType.NumberMinimum]: 'greater_than_equal',
  [ValueErrorType.NumberMaximum]: 'less_than_equal',
  [ValueErrorType.Boolean]: 'bool_type',
  [ValueErrorType.Array]: 'list_type',
  [ValueErrorType.ArrayMinItems]: 'too_short',
  [ValueErrorType.ArrayMaxItems]: 'too_long',
  [ValueErrorType.Object]: 'dict_type',
  [ValueErrorType.Literal]: 'literal_error',
  [ValueErrorType.Union]: 'union_error',
};

/** Turns Elysia's validation failure into FastAPI-shaped items: `{loc, msg, type}`. */
export function validationIssues(error: ValidationError): ValidationIssue[] {
  const location = locationOf[error.type] ?? error.type;
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const item of error.all) {
    const loc = [location, ...pathSegments(item.path)];
    const schema = item.schema as Record<string, unknown>;
    const coerced =
      item.type === ValueErrorType.Union
        ? coercedScalarOf(schema)
        : item.type === ValueErrorType.Kind && isTextSchema(schema)
          ? textProblem(schema as TextOptions, item.value)
          : undefined;
    // TypeBox reports an absent field as a type mismatch against `undefined`.
    const missing = item.value === undefined && item.path !== '';
    const type = missing ? 'missing' : (coerced?.type ?? typeOf[item.type] ?? 'value_error');
    const key = `${loc.join('/')}|${type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const msg = missing ? 'Field required' : (coerced?.msg ?? messageOf(item.type, item.message, schema));
    issues.push({ loc, msg, type });
  }
  return issues.length > 0 ? issues : [{ loc: [location], msg: 'Invalid input', type: 'value_error' }];
}

// Elysia accepts numbers and booleans also as strings (query values, form fields): its schema is then a
// union of the two, and a failure should read as the scalar's failure, not as "Expected union value".
function coercedScalarOf(schema: Record<string, unknown>): { type: string; msg: string } | undefined {
  switch (scalarTypeIn(schema)) {
    case 'integer':
      return { type: 'int_parsing', msg: 'Input should be a valid integer' };
    case 'number':
      return { type: 'float_parsing', msg: 'Input should be a valid number' };
    case 'boolean':
      return { type: 'bool_parsing', msg: 'Input should be a valid boolean' };
    default:
      return undefined;
  }
}

function scalarTypeIn(schema: Record<string, unknown>): unknown {
  if (schema.type === 'integer' || schema.type === 'number' || schema.type === 'boolean') return schema.type;
  const members = Array.isArray(schema.anyOf) ? (schema.anyOf as Record<string, unknown>[]) : [];
  return members.map(scalarTypeIn).find((type) => type !== undefined);
}

function pathSegments(path: string): (string | number)[] {
  return path
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

function messageOf(type: ValueErrorType, fallback: string, schema: Record<string, unknown>): string {
  switch (type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'Field required';
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `Input should be greater than or equal to ${schema.minimum}`;
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `Input should be less than or equal to ${schema.maximum}`;
    case ValueErrorType.StringMinLength:
      return `String should have at least ${schema.minLength} characters`;
    case ValueErrorType.StringMaxLength:
      return `String should have at most ${schema.maxLength} characters`;
    case ValueErrorType.Integer:
      return 'Input should be a valid integer';
    default:
      return typeof schema.error === 'string' ? schema.error : fallback;
  }
}
