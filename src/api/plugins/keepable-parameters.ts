import { Elysia } from 'elysia';
import { assertKeepable } from '../request-body/json-input';

/**
 * Query and path values get the checks a body's strings get: a `%00` decodes to a NUL the metadata
 * store refuses, so it is a 422 at the parameter, never a failed query.
 */
export function keepableParameters() {
  return new Elysia({ name: 'keepable-parameters' }).onTransform({ as: 'global' }, ({ query, params }) => {
    for (const [name, value] of Object.entries(query ?? {})) assertKeepable(value, ['query', name]);
    for (const [name, value] of Object.entries((params ?? {}) as Record<string, unknown>)) assertKeepable(value, ['path', name]);
  });
}
