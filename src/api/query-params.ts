import { t } from 'elysia';
import { RequestValidationError } from '../errors/app-error';

/**
 * An integer sent as text (query parameter or form field). Elysia's own coercion reports a bound
 * violation without naming the field; this one names it, so the 422 body says `["query", "limit"]`.
 */
export function textInteger(location: 'query' | 'body', name: string, bounds: { minimum: number; maximum?: number; default?: number }) {
  return t
    .Transform(t.Union([t.String({ format: 'integer', default: bounds.default }), t.Integer(bounds)], bounds))
    .Decode((value) => {
      const parsed = Number(value);
      if (parsed < bounds.minimum) {
        throw RequestValidationError.at([location, name], `Input should be greater than or equal to ${bounds.minimum}`, 'greater_than_equal');
      }
      if (bounds.maximum !== undefined && parsed > bounds.maximum) {
        throw RequestValidationError.at([location, name], `Input should be less than or equal to ${bounds.maximum}`, 'less_than_equal');
      }
      return parsed;
    })
    .Encode((value) => value);
}

export function queryInteger(name: string, bounds: { minimum: number; maximum?: number; default?: number }) {
  return textInteger('query', name, bounds);
}

/** `limit` (1..200) and `offset` (≥ 0) of every list endpoint; the default limit differs per endpoint. */
export function paginationQuery(defaultLimit = 50) {
  return t.Object({
    limit: t.Optional(queryInteger('limit', { minimum: 1, maximum: 200, default: defaultLimit })),
    offset: t.Optional(queryInteger('offset', { minimum: 0, default: 0 })),
  });
}
