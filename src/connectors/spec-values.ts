import type { TSchema } from '@sinclair/typebox';
import { ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';

/** What every answer shows in place of a secret; sent back in a PATCH it keeps the stored value. */
export const maskedSecret = '********';

export interface SpecIssue {
  path: (string | number)[];
  msg: string;
  type: string;
}

type SpecObject = Record<string, unknown>;

/** A spec the type's schema accepts but its connector cannot use (a URL that does not parse): a 422 at the field. */
export class SpecValueError extends Error {
  constructor(readonly issue: SpecIssue) {
    super(issue.msg);
    this.name = 'SpecValueError';
  }
}

/**
 * The spec with its defaults filled in, or every way it breaks the type's JSON Schema (the field's
 * path, a message, a kind in FastAPI's words). Fields the schema does not name are refused.
 */
export function validateSpec(schema: TSchema, candidate: unknown): { spec: SpecObject; issues: [] } | { spec?: undefined; issues: SpecIssue[] } {
  const value = Value.Default(schema, structuredClone(candidate));
  const issues: SpecIssue[] = [];
  const seen = new Set<string>();
  for (const error of Value.Errors(schema, value)) {
    const path = error.path
      .split('/')
      .slice(1)
      .map((part) => (/^\d+$/.test(part) ? Number(part) : part.replaceAll('~1', '/').replaceAll('~0', '~')));
    const issue = describe(error.type, error.schema as Record<string, unknown>, error.message, error.value, path);
    const key = `${issue.path.join('/')}|${issue.type}`;
    if (!seen.has(key)) issues.push(issue);
    seen.add(key);
    if (issues.length >= 50) break;
  }
  return issues.length ? { issues } : { spec: value as SpecObject, issues: [] };
}

function describe(type: ValueErrorType, schema: Record<string, unknown>, message: string, value: unknown, path: (string | number)[]): SpecIssue {
  if (value === undefined && path.length > 0) return { path, msg: 'Field required', type: 'missing' };
  switch (type) {
    case ValueErrorType.ObjectAdditionalProperties:
      return { path, msg: 'Extra fields are not permitted here', type: 'extra_forbidden' };
    case ValueErrorType.Union: {
      const options = ((schema.anyOf as Record<string, unknown>[] | undefined) ?? []).map((member) => member.const).filter((option) => option !== undefined);
      return options.length
        ? { path, msg: `Input should be ${options.map((option) => `'${String(option)}'`).join(', ')}`, type: 'literal_error' }
        : { path, msg: message, type: 'union_error' };
    }
    case ValueErrorType.StringMinLength:
      return { path, msg: `String should have at least ${schema.minLength} characters`, type: 'string_too_short' };
    case ValueErrorType.StringMaxLength:
      return { path, msg: `String should have at most ${schema.maxLength} characters`, type: 'string_too_long' };
    case ValueErrorType.StringPattern:
      return { path, msg: `String should match pattern '${schema.pattern}'`, type: 'string_pattern_mismatch' };
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return { path, msg: `Input should be greater than or equal to ${schema.minimum}`, type: 'greater_than_equal' };
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return { path, msg: `Input should be less than or equal to ${schema.maximum}`, type: 'less_than_equal' };
    case ValueErrorType.Integer:
      return { path, msg: 'Input should be a valid integer', type: 'int_type' };
    case ValueErrorType.String:
      return { path, msg: 'Input should be a valid string', type: 'string_type' };
    case ValueErrorType.Object:
      return { path, msg: 'Input should be an object', type: 'dict_type' };
    case ValueErrorType.Array:
      return { path, msg: 'Input should be a list', type: 'list_type' };
    case ValueErrorType.ArrayMinItems:
      return { path, msg: `List should have at least ${schema.minItems} items`, type: 'too_short' };
    case ValueErrorType.ArrayMaxItems:
      return { path, msg: `List should have at most ${schema.maxItems} items`, type: 'too_long' };
    default:
      return { path, msg: typeof schema.error === 'string' ? schema.error : message, type: 'value_error' };
  }
}

/** Paths of the schema's `writeOnly` string fields (objects nested in objects; arrays hold no secrets). */
export function secretPaths(schema: TSchema, prefix: string[] = []): string[][] {
  const properties = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  return Object.entries(properties).flatMap(([name, property]) => {
    if ((property as { writeOnly?: boolean }).writeOnly) return [[...prefix, name]];
    return (property as { type?: string }).type === 'object' ? secretPaths(property, [...prefix, name]) : [];
  });
}

/** The spec without its secrets, and the secrets apart (by dotted path), for sealing. */
export function splitSecrets(spec: SpecObject, paths: string[][]): { plain: SpecObject; secrets: Record<string, string> } {
  const plain = structuredClone(spec);
  const secrets: Record<string, string> = {};
  for (const path of paths) {
    const parent = parentOf(plain, path);
    const key = path.at(-1)!;
    if (parent && typeof parent[key] === 'string') {
      secrets[path.join('.')] = parent[key];
      delete parent[key];
    }
  }
  return { plain, secrets };
}

/** The spec with its secrets back in place. */
export function withSecrets(plain: SpecObject, secrets: Record<string, string>): SpecObject {
  const spec = structuredClone(plain);
  for (const [dotted, value] of Object.entries(secrets)) {
    const path = dotted.split('.');
    const parent = parentOf(spec, path, true)!;
    parent[path.at(-1)!] = value;
  }
  return spec;
}

/** The spec as answers show it: every secret that is set reads `********` (an empty one, a password cleared, reads empty). */
export function maskedSpec(plain: SpecObject, secrets: Record<string, string>): SpecObject {
  return withSecrets(plain, Object.fromEntries(Object.entries(secrets).map(([path, value]) => [path, value === '' ? '' : maskedSecret])));
}

/**
 * A PATCH of a spec, merged the JSON Merge Patch way (objects merge, null removes, anything else
 * replaces); a secret sent back as `********` keeps the stored one.
 */
export function patchedSpec(current: SpecObject, patch: SpecObject, paths: string[][]): SpecObject {
  const merged = mergePatch(current, patch) as SpecObject;
  for (const path of paths) {
    const parent = parentOf(merged, path);
    const key = path.at(-1)!;
    if (parent?.[key] === maskedSecret) {
      const stored = parentOf(current, path)?.[key];
      if (typeof stored === 'string') parent[key] = stored;
      else delete parent[key];
    }
  }
  return merged;
}

function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const result: SpecObject = target !== null && typeof target === 'object' && !Array.isArray(target) ? structuredClone(target as SpecObject) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

function parentOf(spec: SpecObject, path: string[], create = false): SpecObject | undefined {
  let node: SpecObject = spec;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) {
      if (!create) return undefined;
      node[key] = {};
    }
    node = node[key] as SpecObject;
  }
  return node;
}
