// The record the push benchmarks send: ten columns of the kinds a push infers (integers, doubles, text,
// a boolean, a timestamp), the same in the JSON push, the NDJSON and Parquet uploads and the appender.

/** The columns DuckDB's side of each benchmark creates, the types the push infers for the record. */
export const orderColumns =
  'id BIGINT, quantity BIGINT, price DOUBLE, name VARCHAR, active BOOLEAN, ordered_at TIMESTAMPTZ, city VARCHAR, segment BIGINT, discount DOUBLE, channel VARCHAR';

export function orderRecord(i: number) {
  return {
    id: i,
    quantity: i % 1000,
    price: i * 0.25,
    name: `customer ${i}`,
    active: i % 3 === 0,
    ordered_at: '2026-11-21T10:00:00Z',
    city: `city ${i % 500}`,
    segment: i % 7,
    discount: 0.05,
    channel: 'web',
  };
}
