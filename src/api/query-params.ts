import { t } from 'elysia';
import { RequestValidationError } from '../errors/app-error';
import { documentedAs } from './openapi/documented-schema';

export interface IntegerBounds {
  minimum: number;
  /** Every integer parameter is bounded: the stores and DuckDB take no more than a safe integer. */
  maximum: number;
  default?: number;
}

/** The largest `offset` of any list or result page: beyond it a page is empty anyway. */
export const maxOffset = Number.MAX_SAFE_INTEGER;

const decimalInteger = /^-?\d+$/;

/**
 * An integer sent as text (query parameter or form field): decimal digits only (no `1e3`, `0x10`,
 * blanks or fractions), within its bounds. Elysia's own coercion would take `Number()`'s view of the
 * text and report a bound without naming the field; this names it, so the 422 says `["query", "limit"]`.
 * The document calls it what the client sends: an integer.
 */
export function textInteger(location: 'query' | 'body', name: string, bounds: IntegerBounds) {
  const loc = [location, name];
  const schema = t
    .Transform(t.Union([t.String(), t.Integer()], bounds.default === undefined ? {} : { default: bounds.default }))
    .Decode((value) => {
      const text = String(value);
      if (!decimalInteger.test(text)) throw RequestValidationError.at(loc, 'Input should be a valid integer', 'int_parsing');
      const parsed = Number(text);
      if (parsed < bounds.minimum) throw RequestValidationError.at(loc, `Input should be greater than or equal to ${bounds.minimum}`, 'greater_than_equal');
      if (parsed > bounds.maximum) throw RequestValidationError.at(loc, `Input should be less than or equal to ${bounds.maximum}`, 'less_than_equal');
      return parsed;
    })
    .Encode((value) => value);
  return documentedAs(schema, {
    type: 'integer',
    minimum: bounds.minimum,
    maximum: bounds.maximum,
    ...(bounds.default === undefined ? {} : { default: bounds.default }),
  });
}

export function queryInteger(name: string, bounds: IntegerBounds) {
  return textInteger('query', name, bounds);
}

/** `limit` (1..200) and `offset` (0..2^53−1) of every list endpoint; the default limit differs per endpoint. */
export function paginationQuery(defaultLimit = 50) {
  return t.Object({
    limit: t.Optional(queryInteger('limit', { minimum: 1, maximum: 200, default: defaultLimit })),
    offset: t.Optional(queryInteger('offset', { minimum: 0, maximum: maxOffset, default: 0 })),
  });
}
