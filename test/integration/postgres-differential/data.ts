/**
 * The differential suite's data, as records a user would push: each table is pushed as JSON into
 * the lake (which infers its column types) and loaded into Postgres with the types the push infers,
 * so both engines hold the same values of the same types.
 */
export type PushedType = 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMPTZ' | 'DATE' | 'VARCHAR' | 'JSON';

export interface PushedTable {
  /** `<namespace>.<table>`. */
  name: string;
  columns: Readonly<Record<string, PushedType>>;
  records: readonly Record<string, unknown>[];
}

export const postgresTypes: Readonly<Record<PushedType, string>> = {
  BIGINT: 'bigint', DOUBLE: 'double precision', BOOLEAN: 'boolean', TIMESTAMPTZ: 'timestamptz', DATE: 'date', VARCHAR: 'text', JSON: 'jsonb',
};

const customers: PushedTable = {
  name: 'shop.customers',
  columns: { id: 'BIGINT', name: 'VARCHAR', email: 'VARCHAR', country: 'VARCHAR', signup: 'DATE', vip: 'BOOLEAN', balance: 'DOUBLE', score: 'BIGINT', created_at: 'TIMESTAMPTZ', profile: 'JSON' },
  records: [
    { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', country: 'GB', signup: '2023-01-15', vip: true, balance: 1250.5, score: 88, created_at: '2023-01-15T09:30:00Z', profile: { age: 36, langs: ['en', 'fr'], address: { city: 'London', zip: 'NW1' } } },
    { id: 2, name: 'José Martínez', email: 'jose@example.es', country: 'ES', signup: '2023-02-01', vip: false, balance: -75.25, score: 42, created_at: '2023-02-01T23:59:59.5Z', profile: { age: 29, langs: ['es'], newsletter: true } },
    { id: 3, name: 'Zoë Kravitz', email: 'zoe@example.com', country: 'US', signup: '2023-02-01', vip: true, balance: 0.5, score: null, created_at: '2023-02-01T12:00:00Z', profile: { age: 41, langs: [], address: { city: 'New York', zip: null } } },
    { id: 4, name: 'Łukasz Nowak', email: null, country: 'PL', signup: '2023-03-10', vip: null, balance: 310.75, score: 15, created_at: '2023-03-10T00:00:00Z', profile: { age: null, langs: ['pl', 'en', 'de'] } },
    { id: 5, name: "Conan O'Brien", email: 'conan@example.com', country: 'US', signup: '2023-05-05', vip: false, balance: -310.125, score: 77, created_at: '2023-05-05T17:45:10.25Z', profile: {} },
    { id: 6, name: 'Grace Hopper', email: 'grace@example.com', country: null, signup: '2023-06-30', vip: true, balance: 9999.99, score: 100, created_at: '2023-06-30T08:00:00Z', profile: { age: 85, langs: ['en'], address: { city: 'Arlington', zip: '22201' } } },
    { id: 7, name: 'émile zola', email: 'emile@example.fr', country: 'FR', signup: '2024-02-29', vip: false, balance: 15.5, score: 3, created_at: '2024-02-29T14:20:00Z', profile: { age: 62, langs: ['fr'], tags: { a: 1, b: [1, 2] } } },
    { id: 8, name: 'Alan  Turing', email: 'alan@example.com', country: 'GB', signup: '2023-09-01', vip: null, balance: 2.5, score: 50, created_at: '2023-09-01T06:05:04Z', profile: { age: 41, langs: ['en'] } },
  ],
};

const orders: PushedTable = {
  name: 'shop.orders',
  columns: { id: 'BIGINT', customer_id: 'BIGINT', status: 'VARCHAR', total: 'DOUBLE', qty: 'BIGINT', ordered_at: 'TIMESTAMPTZ', shipped_on: 'DATE', note: 'VARCHAR', express: 'BOOLEAN', meta: 'JSON' },
  records: [
    { id: 101, customer_id: 1, status: 'shipped', total: 89.97, qty: 3, ordered_at: '2024-01-03T09:15:00Z', shipped_on: '2024-01-05', note: null, express: false, meta: { channel: 'web', coupon: null } },
    { id: 102, customer_id: 1, status: 'shipped', total: 262.5, qty: 4, ordered_at: '2024-01-20T18:45:30.25Z', shipped_on: '2024-01-22', note: 'gift wrap', express: true, meta: { channel: 'app', items: [1, 2] } },
    { id: 103, customer_id: 2, status: 'cancelled', total: 120, qty: 1, ordered_at: '2024-01-31T23:59:59.999999Z', shipped_on: null, note: 'changed mind', express: false, meta: null },
    { id: 104, customer_id: 3, status: 'shipped', total: 56.99, qty: 5, ordered_at: '2024-02-14T12:00:00Z', shipped_on: '2024-02-16', note: 'Valentine ❤', express: true, meta: { channel: 'web' } },
    { id: 105, customer_id: 3, status: 'refunded', total: 39.98, qty: 2, ordered_at: '2024-02-29T08:30:00Z', shipped_on: '2024-03-01', note: null, express: false, meta: { channel: 'store', refund: { amount: 39.98 } } },
    { id: 106, customer_id: 4, status: 'shipped', total: 600.48, qty: 9, ordered_at: '2024-03-01T00:00:00Z', shipped_on: '2024-03-04', note: null, express: null, meta: { channel: 'web' } },
    { id: 107, customer_id: 5, status: 'pending', total: 360, qty: 3, ordered_at: '2024-03-15T14:20:10.5Z', shipped_on: null, note: '请尽快发货', express: true, meta: null },
    { id: 108, customer_id: 6, status: 'shipped', total: 9.75, qty: 1, ordered_at: '2024-03-15T14:20:10.5Z', shipped_on: '2024-03-15', note: null, express: false, meta: { channel: 'app' } },
    { id: 109, customer_id: 1, status: 'shipped', total: 59.99, qty: 11, ordered_at: '2024-04-02T10:00:00Z', shipped_on: '2024-04-03', note: null, express: false, meta: { channel: 'web' } },
    { id: 110, customer_id: 7, status: 'pending', total: 348, qty: 2, ordered_at: '2024-04-30T16:00:00Z', shipped_on: null, note: 'call before delivery', express: null, meta: { channel: 'phone' } },
    { id: 111, customer_id: 8, status: 'shipped', total: 49.99, qty: 1, ordered_at: '2024-05-05T05:05:05Z', shipped_on: '2024-05-07', note: null, express: false, meta: { channel: 'web' } },
    { id: 112, customer_id: null, status: null, total: 4.5, qty: 7, ordered_at: '2024-06-15T11:11:11Z', shipped_on: null, note: 'guest checkout', express: false, meta: { channel: 'web' } },
  ],
};

const events: PushedTable = {
  name: 'shop.events',
  columns: { id: 'BIGINT', customer_id: 'BIGINT', kind: 'VARCHAR', happened_at: 'TIMESTAMPTZ', payload: 'JSON', duration: 'DOUBLE' },
  records: [
    { id: 1, customer_id: 1, kind: 'login', happened_at: '2024-01-03T09:00:00Z', payload: { device: 'desktop', ok: true }, duration: 1.5 },
    { id: 2, customer_id: 1, kind: 'view', happened_at: '2024-01-03T09:05:12.5Z', payload: { page: '/p/1', ms: 1200 }, duration: 0.25 },
    { id: 3, customer_id: 1, kind: 'purchase', happened_at: '2024-01-03T09:15:00Z', payload: { order: 101, items: [{ sku: 'KB', qty: 1 }, { sku: 'MS', qty: 2 }], total: 89.97 }, duration: 10 },
    { id: 4, customer_id: 2, kind: 'login', happened_at: '2024-01-31T23:50:00Z', payload: { device: 'mobile', ok: false, reason: 'bad password' }, duration: -1 },
    { id: 5, customer_id: 2, kind: 'login', happened_at: '2024-01-31T23:51:30Z', payload: { device: 'mobile', ok: true }, duration: 1 },
    { id: 6, customer_id: 3, kind: 'view', happened_at: '2024-02-14T11:58:00.123456Z', payload: { page: '/p/7', ms: 300 }, duration: 0.5 },
    { id: 7, customer_id: null, kind: 'view', happened_at: '2024-02-20T10:00:00Z', payload: { page: '/', ms: 80, utm: { source: 'ads', campaign: 'spring' } }, duration: 0.125 },
    { id: 8, customer_id: 4, kind: 'purchase', happened_at: '2024-03-01T00:00:00Z', payload: { order: 106, items: [{ sku: 'MN', qty: 2 }], total: 600.48 }, duration: 12.75 },
    { id: 9, customer_id: 6, kind: 'support', happened_at: '2024-04-01T09:30:00Z', payload: { topic: 'billing', priority: 2, tags: ['refund', 'urgent'] }, duration: null },
    { id: 10, customer_id: 8, kind: 'logout', happened_at: '2024-05-31T21:30:00Z', payload: {}, duration: 0 },
  ],
};

const numbers: PushedTable = {
  name: 'shop.numbers',
  columns: { id: 'BIGINT', a: 'BIGINT', b: 'BIGINT', x: 'DOUBLE', y: 'DOUBLE', label: 'VARCHAR', flag: 'BOOLEAN', day: 'DATE' },
  records: [
    { id: 1, a: 7, b: 2, x: 2.5, y: 0.1, label: 'seven', flag: true, day: '2024-01-15' },
    { id: 2, a: -7, b: 2, x: -2.5, y: 3.75, label: 'minus seven', flag: false, day: '2024-02-29' },
    { id: 3, a: 10, b: 3, x: 3.5, y: -1.25, label: 'ten', flag: true, day: '2023-12-31' },
    { id: 4, a: 0, b: 5, x: 0.5, y: 100.125, label: 'zero', flag: null, day: '2024-03-31' },
    { id: 5, a: 15, b: 4, x: 1.005, y: 2.675, label: null, flag: false, day: null },
    { id: 6, a: 1000000, b: 7, x: 1e-7, y: 123456.789, label: 'million', flag: true, day: '2000-01-01' },
    { id: 7, a: null, b: 1, x: null, y: 5.5, label: 'nothing', flag: null, day: '2024-07-04' },
    { id: 8, a: 9, b: -4, x: 4.5, y: -0.5, label: 'nine', flag: false, day: '1999-12-31' },
  ],
};

export const tables: readonly PushedTable[] = [customers, orders, events, numbers];
